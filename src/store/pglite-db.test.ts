import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteDb, storeOpenError } from './pglite-db.js';

const dir = mkdtempSync(join(tmpdir(), 'cohort-pglite-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('opening a PGlite store folder', () => {
  it('says what a thrown plain object holds, not "[object Object]"', () => {
    const error = storeOpenError('dlink', { name: 'ErrnoError', errno: 44 }, true);
    expect(error.code).toBe('retrieval_unavailable');
    expect(error.message).toBe(
      'Cannot open the store in dlink: {"name":"ErrnoError","errno":44} (no such file or directory).',
    );
    expect(storeOpenError('dlink', { message: 'no such folder' }, true).message).toBe(
      'Cannot open the store in dlink: no such folder.',
    );
  });

  it('says what to do when PostgreSQL stops on its damaged files', () => {
    // A damaged write-ahead log: PGlite's own words were only the compiler's.
    const error = storeOpenError(
      '.cohort',
      new Error('Aborted(). Build with -sASSERTIONS for more info.'),
      false,
    );
    expect(error.message).toBe(
      'Cannot open the store in .cohort: the embedded PostgreSQL stopped while reading its files (Aborted()). Its PostgreSQL files are damaged, or incomplete (a first start killed while writing them, by a cohort older than this one): restore the folder from a backup or, if it holds nothing you need, remove it and start again.',
    );
    // An overwritten catalog page.
    const page = storeOpenError(
      '.cohort',
      new Error('invalid page in block 3 of relation "base/5/1255"'),
      false,
    );
    expect(page.message).toMatch(/base\/5\/1255"\. Its PostgreSQL files are damaged/);
  });

  it('says the disk is full, not that the files are damaged, when little space is left', () => {
    // On a full disk PGlite cannot start ("failed to initialize properly") and the message said
    // the folder's files were damaged and to remove it; with space freed the same folder opened
    // whole. A user following that advice deleted an intact store.
    const full = storeOpenError(
      '.cohort',
      new Error('PGlite failed to initialize properly'),
      false,
      2 * 1024 * 1024,
    );
    expect(full.message).toContain('the disk holding .cohort has only 2.0 MB free');
    expect(full.message).not.toMatch(/remove it|damaged/);
    // The file system's own ENOSPC, thrown as a plain object.
    const nospace = storeOpenError('.cohort', { name: 'ErrnoError', errno: 51 }, true);
    expect(nospace.message).toContain('(no space left on device)');
    expect(nospace.message).toContain('free some space');
    // The same error after crossing from the engine's thread: its description only.
    const crossed = storeOpenError(
      '.cohort',
      new Error('{"name":"ErrnoError","errno":51}'),
      true,
      undefined,
    );
    expect(crossed.message).toContain('(no space left on device). PostgreSQL needs room');
    // With room on the disk, damaged files are still named as such.
    const damaged = storeOpenError(
      '.cohort',
      new Error('PGlite failed to initialize properly'),
      false,
      10 * 1024 ** 3,
    );
    expect(damaged.message).toMatch(/Its PostgreSQL files are damaged/);
  });

  it('opens a store in a folder reached through a symbolic link, and again after closing', async () => {
    // PGlite's file system does not follow a link at its root (it threw ErrnoError 44).
    mkdirSync(join(dir, 'target'));
    const link = join(dir, 'dlink');
    symlinkSync(join(dir, 'target'), link);
    for (const round of [1, 2]) {
      const db = await openPgliteDb(link, { snapshotDir: false });
      if (round === 1) await db.exec('CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
      const { rows } = await db.query<{ n: number }>('SELECT n FROM kept');
      expect(rows).toEqual([{ n: 7 }]);
      await db.close();
    }
  }, 120_000);
});
