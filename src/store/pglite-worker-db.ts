import { createRequire } from 'node:module';
import { CohortError } from '../errors/index.js';
import type { Db } from './db.js';
import { copySql } from './insert-rows.js';
import { embeddedStartParams, useEmbeddedWasmCompiler } from './pglite-settings.js';
import {
  keepPgliteWasmModule,
  pgliteWasmModule,
  pgliteWasmModuleIfCompiled,
  pgliteWasmPath,
  READ_ARRAY_BYTES,
} from './pglite-wasm.js';
import { PGLITE_WORKER_SOURCE } from './pglite-worker-source.js';
import { nodeWorkerThreads } from '../builtins/index.js';

/** A failure reported by the worker thread, rebuilt on this side with PostgreSQL's fields. */
interface WorkerFailure {
  message: string;
  code?: string;
  detail?: string;
  name?: string;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const require = createRequire(import.meta.url);

/**
 * Most of the PGlite thread's JavaScript heap kept for new objects, in MB (V8's young
 * generation). V8 sizes it by default as for a busy main thread, growing it to 16 MB under load
 * and keeping it; the thread's own JavaScript only carries messages and query results, which die
 * young, so a small one costs a few more quick collections and saves the rest: under 50
 * connections of `/chat` on `cohort serve`, the thread's new space stayed at 1–2 MB instead of
 * 16 (the server's peak resident memory moves ±20 MB between runs, so the saving is within that).
 * Ingesting the ROS 2 docs took the same time either way.
 */
export const PGLITE_THREAD_YOUNG_GENERATION_MB = 4;

/**
 * How long the PGlite thread waits without a message before it collects its garbage, in ms: a
 * burst of writes (a new store's migrations and first ingestion, the saved index and router) left
 * ≈ 40 MB of dead buffers and strings in its heap on `cohort serve`'s first start, kept resident
 * because an idle thread allocates nothing that would make V8 collect them. Under steady load
 * messages keep coming and V8 collects as usual.
 */
export const PGLITE_THREAD_IDLE_COLLECT_MS = 250;

/** An engine that can write its data folder out as a tarball (for the fresh-folder snapshot). */
export interface Dumpable {
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>;
}

/** The engine on its own thread, which can say how much of that thread's heap is in use. */
export interface ThreadDb extends Db, Dumpable {
  /** Bytes of the thread's JavaScript heap in use (live data and uncollected garbage). */
  threadHeapUsed(): Promise<number>;
}

/**
 * Opens PGlite in `dataDir` on a worker thread of its own, so its work (parsing, planning, writing
 * and flushing pages) never blocks the event loop that serves requests: a burst of writes delays
 * other writes, not every request. The {@link Db} it returns behaves like the in-thread one,
 * including interactive transactions. PGlite runs with `fsync` on (its default `-F` is dropped)
 * and the embedded memory and WebAssembly settings of `pglite-settings.ts`. The folder must already be locked by
 * the caller (and a new one unpacked from the fresh-folder snapshot, see `openPgliteDb`).
 *
 * @example
 * const db = await openPgliteWorkerDb('.cohort', { vector: false });
 */
export async function openPgliteWorkerDb(
  dataDir: string,
  options: {
    vector?: boolean;
    /**
     * The fresh-folder snapshot to write a new store's folder from (see `unpackSnapshot`): the
     * thread unpacks it into `dataDir` as it starts, before the engine opens the folder, while
     * this thread goes on (an ingestion reads and parses meanwhile). If that fails, the thread is
     * stopped and a `retrieval_unavailable` error thrown, saying why.
     */
    snapshot?: string;
    /** PGlite's compiled module, asked for once the thread is started (tests pass a fake). */
    wasmModule?: () => Promise<WebAssembly.Module>;
  } = {},
): Promise<ThreadDb> {
  // Process-wide, so set here for the thread's compilation of PGlite (see pglite-settings.ts).
  useEmbeddedWasmCompiler();
  // PGlite's module: this process's when it has one (compiled, or being compiled), posted to the
  // thread; otherwise the thread compiles it as it starts, off this thread, and hands it back.
  const loadHere =
    options.wasmModule ?? (pgliteWasmModuleIfCompiled() ? pgliteWasmModule : undefined);
  const worker = new (nodeWorkerThreads().Worker)(PGLITE_WORKER_SOURCE, {
    eval: true,
    // None of the process's own options: a worker inherits them by default and refuses V8's
    // (`node --max-old-space-size=4096 …` failed to open any folder store, "Initiated Worker with
    // invalid execArgv flags"), and `--input-type=module` would run the thread's CommonJS as a
    // module. The thread's code needs none (its heap has `resourceLimits`; gc it exposes itself).
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: PGLITE_THREAD_YOUNG_GENERATION_MB },
    workerData: {
      dataDir,
      pglitePath: require.resolve('@electric-sql/pglite'),
      ...(options.vector ? { vectorPath: require.resolve('@electric-sql/pglite-pgvector') } : {}),
      startParams: embeddedStartParams(),
      ...(options.snapshot ? { snapshot: options.snapshot } : {}),
      idleCollectMs: PGLITE_THREAD_IDLE_COLLECT_MS,
      ...(loadHere ? {} : { wasm: { path: pgliteWasmPath(), arrayBytes: READ_ARRAY_BYTES } }),
    },
  });
  // Asked for once the thread is started, not before: the thread boots, unpacks the folder and
  // loads PGlite meanwhile, and is posted the module once it needs it.
  let wasm: Promise<WebAssembly.Module> | undefined;
  try {
    wasm = loadHere?.();
  } catch (error) {
    // Reading the file failed: thrown below, once the thread is stopped.
    wasm = Promise.reject(error as Error);
  }
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stopped: Error | undefined;

  const fail = (error: Error) => {
    stopped ??= error;
    for (const { reject } of pending.values()) reject(stopped);
    pending.clear();
  };
  const ready = new Promise<unknown>((resolve, reject) => {
    pending.set(0, { resolve, reject });
  });
  // The thread may fail (unpacking the folder) before this one waits on it: not unhandled.
  ready.catch(() => undefined);
  worker.on('message', (message: { id: number; result?: unknown; error?: WorkerFailure }) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    // The thread keeps the process alive only while something waits on it.
    if (pending.size === 0) worker.unref();
    if (message.error)
      waiting.reject(Object.assign(new Error(message.error.message), message.error));
    else waiting.resolve(message.result);
  });
  worker.on('error', (error) => fail(error));
  worker.on('exit', (code) =>
    fail(
      new CohortError(
        'retrieval_unavailable',
        `The embedded store in ${dataDir} stopped (its thread exited with code ${code}).`,
      ),
    ),
  );

  const call = (op: string, fields: Record<string, unknown> = {}): Promise<unknown> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, ...fields });
    });
  };

  try {
    // The thread opens the engine once the folder is whole and the module compiled.
    if (wasm) worker.postMessage({ op: 'open', wasmModule: await wasm });
    const opened = await ready;
    if (!wasm) keepPgliteWasmModule((opened as { wasmModule: WebAssembly.Module }).wasmModule);
  } catch (error) {
    await worker.terminate();
    throw (error as { unpacking?: boolean }).unpacking && options.snapshot
      ? unpackError(dataDir, options.snapshot, error)
      : error;
  }
  worker.unref();

  let transactions = 0;
  const queryOn = (tx: number | undefined): Db['query'] =>
    (async (sql: string, params: unknown[] = []) =>
      (await call('query', { sql, params, ...(tx ? { tx } : {}) })) as {
        rows: never[];
      }) as Db['query'];
  const execOn = (tx: number | undefined) => async (sql: string) => {
    await call('exec', { sql, ...(tx ? { tx } : {}) });
  };
  // The rows go to the thread as one string, which it hands PGlite as the file COPY reads.
  const copyOn =
    (tx: number | undefined) =>
    async (table: string, columns: readonly string[], text: string): Promise<void> => {
      const sql = copySql(table, columns);
      await call('query', { sql, params: [], copy: text, ...(tx ? { tx } : {}) });
    };

  const db: ThreadDb = {
    engine: 'pglite',
    query: queryOn(undefined),
    exec: execOn(undefined),
    copyFrom: copyOn(undefined),
    async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      const tx = ++transactions;
      await call('begin', { tx });
      const inner: Db = {
        engine: 'pglite',
        query: queryOn(tx),
        exec: execOn(tx),
        copyFrom: copyOn(tx),
        // No answer of its own: the commit (or rollback) sent once `fn` ends hears the outcome.
        commitWhenAnswered: () => {
          if (!stopped) worker.postMessage({ op: 'commitWhenAnswered', tx });
        },
        // Nested transactions run inside the outer one, as they do in the in-thread engine.
        transaction: (nested) => nested(inner),
        close: async () => undefined,
      };
      let result: T;
      try {
        result = await fn(inner);
      } catch (error) {
        await call('rollback', { tx }).catch(() => undefined);
        throw error;
      }
      await call('commit', { tx });
      return result;
    },
    async batch(statements) {
      if (statements.length === 0) return;
      await call('batch', { statements: statements.map(({ sql, params }) => ({ sql, params })) });
    },
    async dumpDataDir(compression = 'none') {
      const bytes = (await call('dump', { compression })) as Uint8Array;
      return new Blob([new Uint8Array(bytes)]);
    },
    threadHeapUsed: async () => (await call('heap')) as number,
    async close() {
      if (!stopped) await call('close').catch(() => undefined);
      stopped ??= new CohortError('retrieval_unavailable', `The store in ${dataDir} is closed.`);
      await worker.terminate();
    },
  };
  return db;
}

/**
 * The error of a new store's folder that could not be written from the fresh-folder snapshot
 * (a damaged snapshot, a full disk), in the thread's own words. `openPgliteDb` then forgets the
 * snapshot and makes the folder anew.
 *
 * @example
 * unpackError('.cohort', 'pglite-0.5.14-schema-7008d9f6a17f.tar', new Error('the tarball is empty'));
 * // CohortError: Cannot write the new store in .cohort from the saved fresh folder pglite-0.5.14-schema-7008d9f6a17f.tar: the tarball is empty. …
 */
export function unpackError(dataDir: string, snapshot: string, cause: unknown): CohortError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new CohortError(
    'retrieval_unavailable',
    `Cannot write the new store in ${dataDir} from the saved fresh folder ${snapshot}: ${reason}. Check that the disk has space and the folder can be written; a damaged snapshot is removed, and made again by the next new store.`,
    { cause },
  );
}
