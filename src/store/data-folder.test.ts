import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import { createDataFolder } from './data-folder.js';
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
});
