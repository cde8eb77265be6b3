import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteDb, storeOpenError } from './pglite-db.js';

const dir = mkdtempSync(join(tmpdir(), 'cohort-pglite-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a store that cannot be opened', () => {
  it('says what a thrown plain object holds, not "[object Object]"', () => {
    const error = storeOpenError('dlink', { name: 'ErrnoError', errno: 44 }, true);
    expect(error.code).toBe('retrieval_unavailable');
    expect(error.message).toBe('Cannot open the store in dlink: {"name":"ErrnoError","errno":44}.');
    expect(storeOpenError('dlink', { message: 'no such folder' }, true).message).toBe(
      'Cannot open the store in dlink: no such folder.',
    );
  });

  it("names PGlite's own failure in a folder reached through a symbolic link", async () => {
    mkdirSync(join(dir, 'target'));
    const link = join(dir, 'dlink');
    symlinkSync(join(dir, 'target'), link);
    const opened = openPgliteDb(link, { snapshotDir: false });
    await expect(opened).rejects.toThrow(/^Cannot open the store in .*dlink: .*ErrnoError/);
    await expect(opened).rejects.not.toThrow(/object Object/);
  }, 60_000);
});
