import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteDb } from './pglite-db.js';
import { embeddedStartParams, EMBEDDED_POSTGRES_SETTINGS } from './pglite-settings.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-pglite-settings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function setting(dataDir: string, name: string): Promise<string> {
  const db = await openPgliteDb(dataDir, { snapshotDir: join(root, 'cache') });
  try {
    const { rows } = await db.query<{ value: string }>('SELECT current_setting($1) AS value', [
      name,
    ]);
    return rows[0]!.value;
  } finally {
    await db.close();
  }
}

describe('embedded PostgreSQL memory settings', () => {
  it('are PostgreSQL start parameters', () => {
    expect(embeddedStartParams({ shared_buffers: '8MB', work_mem: '1MB' })).toEqual([
      '-c',
      'shared_buffers=8MB',
      '-c',
      'work_mem=1MB',
    ]);
  });

  it('hold in memory and in a folder (its own thread), new and reopened, instead of the 128 MB default', async () => {
    const wanted = EMBEDDED_POSTGRES_SETTINGS.shared_buffers;
    expect(wanted).toBe('16MB');
    expect(await setting('memory://', 'shared_buffers')).toBe(wanted);
    const folder = join(root, 'store');
    expect(await setting(folder, 'shared_buffers')).toBe(wanted);
    expect(await setting(folder, 'shared_buffers')).toBe(wanted);
    // fsync stays on for a folder: the memory settings do not replace the durability ones.
    expect(await setting(folder, 'fsync')).toBe('on');
  }, 120_000);
});
