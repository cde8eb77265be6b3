import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { userCacheDir } from '../config/index.js';
import { MIGRATIONS, migrate } from './migrations.js';
import { openPgliteWorkerDb } from './pglite-worker-db.js';
import { packSnapshot } from './snapshot-pack.js';
import { unpackSnapshot } from './snapshot-unpack.js';

/**
 * A new PGlite data folder is made by running `initdb` in WebAssembly: seconds of work and a few
 * hundred MB of memory that stay with the process, the same every time. So the first fresh folder
 * is saved as a tarball in the user's cache, and later new stores start from it instead: a folder
 * has it written out file by file (`unpackSnapshot`), `memory://` loads it with PGlite's
 * `loadDataDir`. It holds cohort's schema too (every migration applied): a new store's engine
 * then has no migration to run as it opens, which was 0.15 s of round trips on the critical path of
 * `cohort ingest` into a new folder. And it holds one database (see {@link ONE_DATABASE}). The tarball is made on this machine by the installed PGlite,
 * never shipped, and named after PGlite's version and the migrations, so an upgrade of either
 * makes a new one.
 */

/**
 * The folder snapshots are kept in: cohort's user cache folder, `$XDG_CACHE_HOME/cohort`, else
 * `~/.cache/cohort`.
 *
 * @example
 * defaultSnapshotDir({ XDG_CACHE_HOME: '/var/cache' }); // '/var/cache/cohort'
 */
export function defaultSnapshotDir(env: NodeJS.ProcessEnv = process.env): string {
  return userCacheDir(env);
}

let pgliteVersion: string | undefined;

/** The installed PGlite's version, read from its package.json beside its entry point. */
function installedPgliteVersion(): string {
  if (pgliteVersion) return pgliteVersion;
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve('@electric-sql/pglite'));
  for (let depth = 0; depth < 4; depth++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return (pgliteVersion = pkg.version);
    } catch {
      // Not this folder: go up.
    }
  }
  return (pgliteVersion = 'unknown');
}

/**
 * A store's one database: PGlite opens `postgres` and nothing else. The templates `initdb` makes
 * beside it (`template0`, `template1`, a copy of the catalogue each) are used only to create
 * another database, which an embedded store never does; dropped from the snapshot, they are 15 of
 * the 24 MB a new store's folder had written out as its engine started (unpacking 173–411 → 60–191
 * ms on the engine's thread, on `cohort ingest`'s critical path). `CREATE DATABASE` then fails in
 * a folder store ("template database "template1" does not exist"): cohort issues none.
 */
const ONE_DATABASE = [
  "UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')",
  'DROP DATABASE template0',
  'DROP DATABASE template1',
];

/**
 * The first characters of a hash of what the snapshot holds besides PGlite's fresh folder (every
 * migration's id and statements, the databases dropped), for the file's name.
 */
const SCHEMA_TAG = createHash('sha1')
  .update(JSON.stringify({ migrations: MIGRATIONS, oneDatabase: ONE_DATABASE }))
  .digest('hex')
  .slice(0, 12);

/**
 * The snapshot file for the installed PGlite and this cohort's migrations: a fresh, migrated
 * folder as a cleanly shut down engine leaves it (see {@link saveSnapshot}). Named apart from the
 * `-fresh.tar` and `-shut-down.tar` of earlier cohorts (a running engine's dump; a folder without
 * the schema), which are left alone: another cohort sharing the cache may still use them.
 */
export function snapshotPath(cacheDir: string): string {
  return join(cacheDir, `pglite-${installedPgliteVersion()}-schema-${SCHEMA_TAG}.tar`);
}

/**
 * The path of the saved fresh data folder, or undefined when there is none yet. Its bytes are read
 * by whoever unpacks it (`unpackSnapshot`, or PGlite through a Blob backed by the file), so they
 * are in memory at most once.
 */
export function findSnapshot(cacheDir: string): string | undefined {
  const path = snapshotPath(cacheDir);
  return existsSync(path) ? path : undefined;
}

/**
 * Saves `pg`'s data folder as the snapshot, migrated; call it on a fresh instance, before any
 * migration (they are applied to the copy). PGlite dumps a running engine's folder, which PostgreSQL starts from as after a crash: it
 * replays the log and first flushes every file of the folder to disk (`fsync` is on), which
 * made opening a new store ≈ 0.3–0.8 s slower than opening one shut down (and as much more
 * CPU), at every new store. So the dump is opened once, here, in a folder of its own, shut down
 * cleanly, and that folder is saved instead (`packSnapshot`). Written to a temporary name and
 * renamed, so a concurrent reader sees the whole file or none. A cache that cannot be written
 * only costs the next store its speed-up, so errors are ignored.
 */
export async function saveSnapshot(
  pg: Pick<PGlite, 'dumpDataDir'>,
  cacheDir: string,
): Promise<void> {
  const target = snapshotPath(cacheDir);
  const partial = `${target}.${process.pid}.partial`;
  const running = `${target}.${process.pid}.running`;
  let folder: string | undefined;
  try {
    const dump = await pg.dumpDataDir('none');
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(running, new Uint8Array(await dump.arrayBuffer()));
    folder = mkdtempSync(join(cacheDir, 'shut-down-'));
    unpackSnapshot(running, folder);
    // The folder's real path, as a store's is opened (PGlite does not follow a link at its root).
    const db = await openPgliteWorkerDb(realpathSync(folder));
    try {
      // One statement a call: DROP DATABASE cannot run inside a transaction block.
      for (const statement of ONE_DATABASE) await db.exec(statement);
      await migrate(db);
    } finally {
      await db.close();
    }
    packSnapshot(folder, partial);
    renameSync(partial, target);
  } catch {
    rmSync(partial, { force: true });
  } finally {
    rmSync(running, { force: true });
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

/** Forgets a snapshot that PGlite could not start from, so the next store makes a good one. */
export function discardSnapshot(cacheDir: string): void {
  rmSync(snapshotPath(cacheDir), { force: true });
}
