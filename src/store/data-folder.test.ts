import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import { createDataFolder, isNewDataFolder } from './data-folder.js';
import { acquireFolderLock } from './folder-lock.js';
import { openPgliteDb } from './pglite-db.js';

const linux = existsSync('/proc/self/stat');

describe('the data folder', () => {
  it('is created with the folders above it', () => {
    const base = mkdtempSync(join(tmpdir(), 'cohort-data-folder-'));
    try {
      createDataFolder(join(base, 'a', 'b', 'data'));
      expect(existsSync(join(base, 'a', 'b', 'data'))).toBe(true);
      createDataFolder(join(base, 'a', 'b', 'data')); // there already: nothing to do
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it.skipIf(!linux)(
    'one that cannot be made is an error naming it, not a hang (Node loops on /proc)',
    async () => {
      // COHORT_DATA_DIR=/proc/self/x made `cohort route` spin for ever in mkdir -p.
      const error = await openPgliteDb('/proc/self/cohort-data').then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isCohortError(error, 'invalid_input')).toBe(true);
      expect((error as Error).message).toContain(
        'Cannot create the data folder "/proc/self/cohort-data" (ENOENT). Pass --data-dir',
      );
    },
  );

  it.skipIf(!linux)('one that cannot be written in is an error naming it', () => {
    // Was "unexpected error: ENOENT: no such file or directory, open '/proc/1/cohort.lock'".
    let error: unknown;
    try {
      acquireFolderLock('/proc/1').release();
    } catch (caught) {
      error = caught;
    }
    expect(isCohortError(error, 'invalid_input')).toBe(true);
    expect((error as Error).message).toMatch(/^Cannot write in the data folder "\/proc\/1" \(E/);
  });

  it('one a start was killed in while writing its marker is still new, and opens', async () => {
    // The marker's temporary file beside a dead process's lock made every later start refuse the
    // folder as one that "holds other files".
    const base = mkdtempSync(join(tmpdir(), 'cohort-data-folder-'));
    try {
      const dir = join(base, 'data');
      mkdirSync(dir);
      const lock = { pid: 999999, host: hostname(), startedAt: 1 };
      writeFileSync(join(dir, 'cohort.lock'), JSON.stringify(lock));
      writeFileSync(join(dir, 'cohort-unfinished-folder.999999.tmp'), 'x');
      expect(isNewDataFolder(dir, 'cohort.lock')).toBe(true);
      const db = await openPgliteDb(dir, { snapshotDir: false });
      await db.close();
      expect(readdirSync(dir)).not.toContain('cohort-unfinished-folder.999999.tmp');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }, 60_000);

  it('one that holds other files and no store is refused, and left as it was', async () => {
    // `--data-dir ~/notes` (or `/`) wrote PostgreSQL's files in among the user's own.
    const base = mkdtempSync(join(tmpdir(), 'cohort-data-folder-'));
    try {
      const dir = join(base, 'notes');
      mkdirSync(dir);
      writeFileSync(join(dir, 'todo.txt'), 'mine\n');
      mkdirSync(join(dir, 'drafts'));
      const error = await openPgliteDb(dir, { snapshotDir: false }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isCohortError(error, 'invalid_input')).toBe(true);
      expect((error as Error).message).toBe(
        `The data folder "${dir}" holds other files (drafts, todo.txt) and no cohort store. Pass --data-dir (or COHORT_DATA_DIR) a new or empty folder, or the folder of an existing store.`,
      );
      expect(readdirSync(dir).sort()).toEqual(['drafts', 'todo.txt']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
