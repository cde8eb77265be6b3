import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import { sourceScript } from '../test/source-script.js';
import { isNewDataFolder } from './data-folder.js';
import { LOCK_FILE_NAME } from './folder-lock.js';
import { openPgliteDb } from './pglite-db.js';
import { snapshotPath } from './pglite-snapshot.js';
import { unpackSnapshot } from './snapshot-unpack.js';
import { UNFINISHED_FOLDER_FILE } from './unfinished-folder.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-unfinished-'));
const cache = join(root, 'cache');
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(async () => {
  // This suite's own fresh-folder snapshot, saved by a first new store in a folder, as a user's
  // first start saves it: its members in the folder's order, `PG_VERSION` first.
  await (await openPgliteDb(join(root, 'first'), { snapshotDir: cache })).close();
}, 120_000);

/** A lock naming a process that is gone, as a killed start leaves it. */
function staleLock(dir: string): void {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  writeFileSync(
    join(dir, LOCK_FILE_NAME),
    JSON.stringify({ pid, host: hostname(), startedAt: Date.now(), command: 'cohort serve' }),
  );
}

/**
 * What a start killed while unpacking the snapshot into a new folder leaves: its marker and lock,
 * and the snapshot's first files (`PG_VERSION` first of all), written by unpacking a tarball that
 * ends part-way.
 */
function killedWhileUnpacking(dir: string): void {
  mkdirSync(dir, { recursive: true });
  staleLock(dir);
  writeFileSync(join(dir, UNFINISHED_FOLDER_FILE), '');
  const cut = join(root, `cut-${Math.random().toString(36).slice(2)}.tar`);
  writeFileSync(cut, readFileSync(snapshotPath(cache)).subarray(0, 1_000_000));
  expect(() => unpackSnapshot(cut, dir)).toThrow(/ends inside/);
  expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
  expect(existsSync(join(dir, 'global', 'pg_control'))).toBe(false);
}

async function notes(dir: string): Promise<string[]> {
  const db = await openPgliteDb(dir, { snapshotDir: cache });
  try {
    const { rows } = await db.query<{ body: string }>('SELECT body FROM notes ORDER BY body');
    return rows.map((row) => row.body);
  } finally {
    await db.close();
  }
}

describe('a new store folder whose making was interrupted', () => {
  it('is made again by the next open, and is a store like any other from then on', async () => {
    const dir = join(root, 'half-made');
    killedWhileUnpacking(dir);
    // PGlite could not start such a folder ("PGlite failed to initialize properly"), on every open.
    expect(isNewDataFolder(dir, LOCK_FILE_NAME)).toBe(true);
    const db = await openPgliteDb(dir, { snapshotDir: cache });
    await db.exec('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ($$kept$$)');
    await db.close();
    expect(readdirSync(dir)).not.toContain(UNFINISHED_FOLDER_FILE);
    expect(isNewDataFolder(dir, LOCK_FILE_NAME)).toBe(false);
    expect(await notes(dir)).toEqual(['kept']);
  }, 60_000);

  it('is made again without the snapshot too (initdb in the folder)', async () => {
    const dir = join(root, 'half-made-no-snapshot');
    killedWhileUnpacking(dir);
    const db = await openPgliteDb(dir, { snapshotDir: false });
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await db.close();
    expect(readdirSync(dir)).not.toContain(UNFINISHED_FOLDER_FILE);
  }, 120_000);

  it('is left alone without the marker: a folder that is not new is never emptied', async () => {
    // The same files, but no marker: a store (or a folder of an older cohort), which may hold data.
    const dir = join(root, 'not-ours-to-empty');
    killedWhileUnpacking(dir);
    rmSync(join(dir, UNFINISHED_FOLDER_FILE));
    // Its files but the stale lock, which the open takes over and releases.
    const files = () =>
      readdirSync(dir, { recursive: true })
        .filter((name) => name !== LOCK_FILE_NAME)
        .sort();
    const before = files();
    const error = await openPgliteDb(dir, { snapshotDir: cache }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isCohortError(error, 'retrieval_unavailable')).toBe(true);
    expect((error as Error).message).toContain('if it holds nothing you need, remove it');
    expect(files()).toEqual(before);
  }, 60_000);

  it('a process killed while it writes a new folder leaves one the next open makes', async () => {
    const dir = join(root, 'killed');
    mkdirSync(dir);
    const module = fileURLToPath(new URL('./pglite-db.ts', import.meta.url));
    const script = `
      const { openPgliteDb } = await import(${JSON.stringify(module)});
      await openPgliteDb(${JSON.stringify(dir)}, { snapshotDir: ${JSON.stringify(cache)} });
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, [await sourceScript(script)], {
      stdio: 'ignore',
    });
    // Killed as soon as PostgreSQL's first file appears: part-way through the snapshot.
    const watcher = watch(dir, (_event, name) => {
      if (name === 'PG_VERSION') child.kill('SIGKILL');
    });
    await new Promise((resolve) => child.once('exit', resolve));
    watcher.close();
    expect(child.signalCode).toBe('SIGKILL');
    expect(readdirSync(dir)).toContain(UNFINISHED_FOLDER_FILE);

    const db = await openPgliteDb(dir, { snapshotDir: cache });
    await db.exec('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ($$after$$)');
    await db.close();
    expect(await notes(dir)).toEqual(['after']);
  }, 120_000);
});
