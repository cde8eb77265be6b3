import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceScript } from '../test/source-script.js';
import { openPgliteDb } from './pglite-db.js';
import { embeddedStartParams, EMBEDDED_POSTGRES_SETTINGS } from './pglite-settings.js';

const STORE = fileURLToPath(new URL('./index.ts', import.meta.url));
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
    expect(wanted).toBe('4MB');
    expect(await setting('memory://', 'shared_buffers')).toBe(wanted);
    const folder = join(root, 'store');
    expect(await setting(folder, 'shared_buffers')).toBe(wanted);
    expect(await setting(folder, 'shared_buffers')).toBe(wanted);
    // fsync stays on for a folder: the memory settings do not replace the durability ones.
    expect(await setting(folder, 'fsync')).toBe('on');
    // One session (single-user mode), so shared memory is set up for one backend.
    expect(await setting('memory://', 'max_connections')).toBe('1');
    expect(await setting(folder, 'max_connections')).toBe('1');
  }, 120_000);

  it('make a new WAL file without writing it full of zeros first, in memory and in a folder', async () => {
    // PostgreSQL's default ('on') wrote 16 MB of zeros inside whichever statement ran past the
    // last WAL file: at the end of `cohort ingest` of the ROS 2 docs, the router's save.
    expect(EMBEDDED_POSTGRES_SETTINGS.wal_init_zero).toBe('off');
    expect(await setting('memory://', 'wal_init_zero')).toBe('off');
    const folder = join(root, 'wal');
    expect(await setting(folder, 'wal_init_zero')).toBe('off');
    expect(await setting(folder, 'wal_init_zero')).toBe('off');
    // The log's flushes are untouched.
    expect(await setting(folder, 'fsync')).toBe('on');
  }, 120_000);

  it("compile the engine's WebAssembly with the baseline compiler only, in memory and in a folder", async () => {
    // V8's compiler memory at its peak, in a process of its own (the setting is the process's):
    // 90–95 MB with the optimising compiler recompiling PostgreSQL's hot functions, ≈ 15 MB without.
    const peakCompilerMb = async (dataDir: string) => {
      const script = `import { getHeapStatistics } from 'node:v8';
const { openStore } = await import(${JSON.stringify(STORE)});
const store = await openStore({ dataDir: ${JSON.stringify(dataDir)} });
for (let i = 0; i < 20; i++)
  await store.db.query('SELECT count(*) FROM generate_series(1, 20000) AS g WHERE g % 7 = 3');
await store.close();
console.log(getHeapStatistics().peak_malloced_memory / 1048576);`;
      const { stdout } = await promisify(execFile)(process.execPath, [await sourceScript(script)], {
        timeout: 90_000,
      });
      return Number(stdout.trim());
    };
    expect(await peakCompilerMb('memory://')).toBeLessThan(40);
    expect(await peakCompilerMb(join(root, 'compiled'))).toBeLessThan(40);
  }, 180_000);
});
