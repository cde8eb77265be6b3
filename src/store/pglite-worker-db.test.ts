import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import { freshFolderSnapshot } from '../test/fresh-folder-snapshot.js';
import { openPgliteWorkerDb, PGLITE_THREAD_IDLE_COLLECT_MS } from './pglite-worker-db.js';

const dir = mkdtempSync(join(tmpdir(), 'cohort-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const STORE = fileURLToPath(new URL('./index.ts', import.meta.url));
const WASM = fileURLToPath(new URL('./pglite-wasm.ts', import.meta.url));
const WORKER_DB = fileURLToPath(new URL('./pglite-worker-db.ts', import.meta.url));

// New folders start from the saved fresh folder, as openPgliteDb starts them: initdb on the
// thread is seconds of work none of these tests is about.
let snapshot: string | undefined;
let snapshotTime: number | undefined;
beforeAll(async () => {
  snapshot = await freshFolderSnapshot();
  snapshotTime = snapshot ? statSync(snapshot).mtimeMs : undefined;
}, 60_000);
const fromSnapshot = () => (snapshot ? { snapshot } : {});

describe('the PGlite thread', () => {
  it('opens a folder from a process started with V8 options and `--input-type=module -e`', async () => {
    const script = `const { openStore } = await import(${JSON.stringify(STORE)});
const store = await openStore({ dataDir: ${JSON.stringify(join(dir, 'store'))} });
console.log(await store.chunks.count());
await store.close();`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--max-old-space-size=4096',
        '--max-semi-space-size=8',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
      ],
      { timeout: 60_000 },
    );
    expect(stdout.trim()).toBe('0');
    // Its new folder was unpacked from the snapshot on its thread, from sources loaded by tsx
    // (which names inner functions with a helper of its own): a failed unpack would have
    // discarded the snapshot and made the folder with initdb instead.
    if (snapshot) expect(statSync(snapshot).mtimeMs).toBe(snapshotTime);
  }, 60_000);

  it("compiles PGlite's module on the thread in a process that has none, and the process keeps it", async () => {
    // A process of its own: this one has compiled the module already, for the other tests.
    const script = `const wasm = await import(${JSON.stringify(WASM)});
const { openPgliteWorkerDb } = await import(${JSON.stringify(WORKER_DB)});
const before = wasm.pgliteWasmModuleIfCompiled();
const db = await openPgliteWorkerDb(${JSON.stringify(join(dir, 'thread-compiled'))}, ${JSON.stringify(fromSnapshot())});
const { rows } = await db.query('SELECT 2 AS two');
const kept = await wasm.pgliteWasmModuleIfCompiled();
console.log(JSON.stringify({ before: before === undefined, two: rows[0].two, kept: kept instanceof WebAssembly.Module, same: wasm.pgliteWasmModule() === wasm.pgliteWasmModuleIfCompiled() }));
await db.close();`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toEqual({ before: true, two: 2, kept: true, same: true });
  }, 60_000);

  it('ends a transaction told to commit when answered on its own thread, before this one sends the commit', async () => {
    const db = await openPgliteWorkerDb(join(dir, 'commit-early'), fromSnapshot());
    try {
      await db.exec('CREATE TABLE t (x int PRIMARY KEY)');
      const count = async () =>
        (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]?.n;
      // This thread stays busy (the function has not returned) after the last statement is sent.
      let finish: () => void = () => undefined;
      const busy = new Promise<void>((resolve) => (finish = resolve));
      const committing = db.transaction(async (tx) => {
        const written = tx.query('INSERT INTO t VALUES (1), (2)');
        tx.commitWhenAnswered?.();
        await busy;
        await written;
      });
      // Run once the transaction has ended: it did not wait for the function, nor for a commit.
      expect(await count()).toBe(2);
      finish();
      await committing;

      // A statement that fails rolls it back, and the transaction fails with that statement.
      let finishFailing: () => void = () => undefined;
      const busyFailing = new Promise<void>((resolve) => (finishFailing = resolve));
      const failing = db.transaction(async (tx) => {
        const first = tx.query('INSERT INTO t VALUES (3)');
        const clash = tx.query('INSERT INTO t VALUES (1)');
        // Awaited below, once this thread is done; it fails before that.
        clash.catch(() => undefined);
        tx.commitWhenAnswered?.();
        await busyFailing;
        await first;
        await clash;
      });
      failing.catch(() => undefined);
      expect(await count()).toBe(2);
      finishFailing();
      await expect(failing).rejects.toThrow(/duplicate key/);
      expect(await count()).toBe(2);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('hands back a result far larger than its small young generation, whole', async () => {
    const db = await openPgliteWorkerDb(join(dir, 'large'), fromSnapshot());
    try {
      const { rows } = await db.query<{ i: number; t: string }>(
        "SELECT i, repeat('x', 100) || i AS t FROM generate_series(1, 100000) AS i",
      );
      expect(rows).toHaveLength(100_000);
      expect(rows[99_999]).toEqual({ i: 100_000, t: `${'x'.repeat(100)}100000` });
    } finally {
      await db.close();
    }
  }, 60_000);

  it('collects the garbage a burst of work left once no message has come for a while', async () => {
    const db = await openPgliteWorkerDb(join(dir, 'idle'), fromSnapshot());
    try {
      const before = await db.threadHeapUsed();
      // A 30 MB value passes through the thread and is garbage once handed back.
      const { rows } = await db.query<{ n: number }>(
        "SELECT length(repeat('x', 30000000)) AS n, repeat('x', 30000000) AS t",
      );
      expect(rows[0]?.n).toBe(30_000_000);
      await new Promise((resolve) => setTimeout(resolve, PGLITE_THREAD_IDLE_COLLECT_MS + 500));
      // Without a collection the idle thread would still hold it (it allocates nothing more).
      expect(await db.threadHeapUsed()).toBeLessThan(before + 10_000_000);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('asks for the compiled module once the thread is started, and stops the thread if that throws', async () => {
    const failed = await openPgliteWorkerDb(join(dir, 'no-module'), {
      ...fromSnapshot(),
      wasmModule: () => {
        throw new Error('cannot read pglite.wasm');
      },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    // Thrown once the thread is stopped, as a module that fails to compile is.
    expect((failed as Error).message).toBe('cannot read pglite.wasm');
  }, 60_000);

  it('unpacks a new folder from the snapshot on its own thread, and stops with a typed error if it cannot', async () => {
    const damaged = join(dir, 'damaged.tar');
    writeFileSync(damaged, 'not a tarball');
    const failed = await openPgliteWorkerDb(join(dir, 'unprepared'), { snapshot: damaged }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isCohortError(failed, 'retrieval_unavailable')).toBe(true);
    expect((failed as Error).message).toMatch(
      /^Cannot write the new store in .*unprepared from the saved fresh folder .*damaged\.tar: the tarball ends before its end-of-archive marker\. Check that the disk has space/,
    );
    if (!snapshot) return;
    const db = await openPgliteWorkerDb(join(dir, 'prepared'), { snapshot });
    try {
      expect(existsSync(join(dir, 'prepared', 'PG_VERSION'))).toBe(true);
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
