import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from './folder-lock.js';
import { MIGRATIONS } from './migrations.js';
import { openPgliteDb } from './pglite-db.js';
import { defaultSnapshotDir, snapshotPath } from './pglite-snapshot.js';
import { readSnapshot } from './snapshot-unpack.js';

/** `DBState` of PostgreSQL's control file for a folder shut down cleanly (a running one: 6). */
const DB_SHUTDOWNED = 1;

/** The `state` field of the snapshot's `global/pg_control` (after the id and two versions). */
function controlState(tarball: string): number | undefined {
  let state: number | undefined;
  readSnapshot(tarball, (member) => {
    if (member.parts.join('/') !== 'global/pg_control') return;
    const bytes = Buffer.alloc(20);
    member.read(bytes, 0, bytes.length);
    state = bytes.readUInt32LE(16);
  });
  return state;
}

const root = mkdtempSync(join(tmpdir(), 'cohort-snapshot-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('PGlite fresh-folder snapshot', () => {
  it('is saved by the first new store and started from by the next, in a folder that keeps its data', async () => {
    const cache = join(root, 'cache');
    const first = await openPgliteDb('memory://', { snapshotDir: cache });
    await first.close();
    const saved = snapshotPath(cache);
    expect(statSync(saved).size).toBeGreaterThan(1_000_000);
    const savedAt = statSync(saved).mtimeMs;
    // Of an engine shut down cleanly: a store opened from it has no crash to recover from.
    expect(controlState(saved)).toBe(DB_SHUTDOWNED);

    const folder = join(root, 'store');
    const fromSnapshot = await openPgliteDb(folder, { snapshotDir: cache });
    // With cohort's schema already in it: opening a new store runs no migration.
    const recorded = await fromSnapshot.query<{ id: number }>(
      'SELECT id FROM schema_migrations ORDER BY id',
    );
    expect(recorded.rows.map((row) => row.id)).toEqual(MIGRATIONS.map((migration) => migration.id));
    // And one database: initdb's templates are not written out for every new store.
    const databases = await fromSnapshot.query<{ datname: string }>(
      'SELECT datname FROM pg_database',
    );
    expect(databases.rows).toEqual([{ datname: 'postgres' }]);
    await fromSnapshot.exec('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ($$kept$$)');
    await fromSnapshot.close();
    expect(statSync(saved).mtimeMs).toBe(savedAt);
    // Unpacked with the snapshot's own modes: the data files are nobody else's to read (PGlite's
    // loader wrote them readable by all).
    for (const file of ['PG_VERSION', 'global/pg_control'])
      expect(statSync(join(folder, file)).mode & 0o007).toBe(0);

    // memory:// starts from it too (a snapshot it could not start from would have been replaced).
    const inMemory = await openPgliteDb('memory://', { snapshotDir: cache });
    await inMemory.exec('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ($$fresh$$)');
    expect(
      (await inMemory.query<{ n: number }>('SELECT count(*)::int AS n FROM notes')).rows,
    ).toEqual([{ n: 1 }]);
    await inMemory.close();
    expect(statSync(saved).mtimeMs).toBe(savedAt);

    const reopened = await openPgliteDb(folder, { snapshotDir: cache });
    expect((await reopened.query<{ body: string }>('SELECT body FROM notes')).rows).toEqual([
      { body: 'kept' },
    ]);
    await reopened.close();
  }, 120_000);

  it('a damaged snapshot is discarded and the store still opens', async () => {
    const cache = join(root, 'damaged');
    mkdirSync(cache, { recursive: true });
    writeFileSync(snapshotPath(cache), 'not a tarball');
    const db = await openPgliteDb(join(root, 'after-damage'), { snapshotDir: cache });
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await db.close();
    expect(statSync(snapshotPath(cache)).size).toBeGreaterThan(1_000_000);

    // That snapshot was saved from a folder, holding its lock: a store started from it holds its
    // own lock while open (the saved one named a process that is gone) and releases it on close.
    const folder = join(root, 'from-folder-snapshot');
    const next = await openPgliteDb(folder, { snapshotDir: cache });
    const holder = JSON.parse(readFileSync(join(folder, LOCK_FILE_NAME), 'utf8')) as {
      pid: number;
    };
    expect(holder.pid).toBe(process.pid);
    await next.close();
    expect(existsSync(join(folder, LOCK_FILE_NAME))).toBe(false);
  }, 120_000);

  it('lives in the XDG cache by default', () => {
    expect(defaultSnapshotDir({ XDG_CACHE_HOME: '/var/cache' })).toBe('/var/cache/cohort');
    expect(defaultSnapshotDir({})).toMatch(/\.cache\/cohort$/);
  });
});
