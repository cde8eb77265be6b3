import { realpathSync } from 'node:fs';
import type { MemoryFS, PGlite, Transaction } from '@electric-sql/pglite';
import { CohortError, describeCause } from '../errors/index.js';
import type { Db } from './db.js';
import { copySql } from './insert-rows.js';
import { errnoWords, freeBytes, lowSpaceAdvice } from './disk-space.js';
import {
  checkDataFolder,
  createDataFolder,
  dataFolderError,
  isNewDataFolder,
} from './data-folder.js';
import { acquireFolderLock, LOCK_FILE_NAME, type FolderLock } from './folder-lock.js';
import { openPgliteWorkerDb, type Dumpable } from './pglite-worker-db.js';
import { embeddedStartParams, useEmbeddedWasmCompiler } from './pglite-settings.js';
import { pgliteWasmModule } from './pglite-wasm.js';
import {
  defaultSnapshotDir,
  discardSnapshot,
  findSnapshot,
  saveSnapshot,
} from './pglite-snapshot.js';
import { unpackSnapshotInto, type EmscriptenFs } from './snapshot-unpack.js';
import { checkpointRedo, walNeverRead } from './wal-before-checkpoint.js';
import { BYTEA_TYPE_ID, parseBytea, serializeBytea } from './pglite-bytea.js';
import {
  clearUnfinishedFolder,
  finishUnfinishedFolder,
  startUnfinishedFolder,
} from './unfinished-folder.js';

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(target: Queryable, root: PGlite | undefined): Db {
  return {
    engine: 'pglite',
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await target.query<Row>(sql, params);
      return { rows: result.rows };
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
    async copyFrom(table: string, columns: readonly string[], text: string) {
      await target.query(copySql(table, columns), [], { blob: new Blob([text]) });
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      if (!root) return fn(wrap(target, undefined));
      return root.transaction((tx) => fn(wrap(tx, undefined)));
    },
    async close() {
      await root?.close();
    },
  };
}

/**
 * PGlite's in-memory file system, holding a new data folder unpacked from `snapshotFile` (see
 * `unpackSnapshotInto`) once the engine's module has started, before PGlite looks for a folder.
 */
function snapshotMemoryFs(Base: typeof MemoryFS, snapshotFile: string): MemoryFS {
  return new (class extends Base {
    override async init(pg: PGlite, opts: Parameters<MemoryFS['init']>[1]) {
      const { emscriptenOpts } = await super.init(pg, opts);
      const preRun = [emscriptenOpts.preRun ?? []].flat();
      return {
        emscriptenOpts: {
          ...emscriptenOpts,
          preRun: [
            ...preRun,
            (module: { FS: EmscriptenFs }) => {
              // Every file written here is JavaScript memory for as long as the process runs:
              // the log PostgreSQL never reads again is left as zeros, not copied. (The snapshot
              // holds no template databases: `saveSnapshot` drops them.)
              const redo = checkpointRedo(snapshotFile);
              unpackSnapshotInto(snapshotFile, module.FS, PGDATA, {
                ...(redo !== undefined
                  ? { zeros: (parts, size) => walNeverRead(parts, size, redo) }
                  : {}),
              });
            },
          ],
        },
      };
    }
  })();
}

/** Where PGlite keeps its data folder in its file system. */
const PGDATA = '/pglite/data';

/** Options of {@link openPgliteDb}. */
export interface PgliteOptions {
  /** Load pgvector, for embeddings. */
  vector?: boolean;
  /**
   * Where the fresh-folder snapshot is kept (see `pglite-snapshot.ts`): a new store starts from it
   * instead of running initdb. Defaults to {@link defaultSnapshotDir}; `false` turns it off.
   */
  snapshotDir?: string | false;
  /** The folder's lock, when the caller took it already (it is released on close as if taken here). */
  lock?: FolderLock;
  /** Runs on close once the engine is closed, before the folder lock is released. */
  beforeUnlock?: () => void;
}

/**
 * Opens the embedded engine: PGlite in `dataDir` (created if missing), or in memory for
 * `memory://`; `vector` loads pgvector for embeddings. A data folder is locked before anything is
 * opened, so only one process holds it at a time: a second one gets a `conflict` error naming the
 * holder (share a store between processes with PostgreSQL instead). A folder's engine runs on a
 * worker thread, so its work does not block the event loop, and flushes commits to disk (`fsync`
 * on) before they are acknowledged. A new store starts from the saved fresh-folder
 * snapshot when there is one, and saves one when there is not. A new folder is marked unfinished
 * until the engine has opened it, so a process killed while writing it leaves a folder the next
 * open makes again (see `unfinished-folder.ts`), never one PGlite cannot start.
 *
 * @example
 * const db = await openPgliteDb('.cohort');
 */
export async function openPgliteDb(dataDir: string, options: PgliteOptions = {}): Promise<Db> {
  const inMemory = dataDir.startsWith('memory://');
  let lock: FolderLock | undefined;
  if (!inMemory) {
    createDataFolder(dataDir);
    try {
      checkDataFolder(dataDir, LOCK_FILE_NAME);
    } catch (error) {
      options.lock?.release();
      throw error;
    }
    lock = options.lock ?? acquireFolderLock(dataDir);
  }
  // Decided under the lock: a process that held it a moment ago may have made the store since.
  // Only a missing or empty folder is new (holding at most the lock), or one whose making was
  // interrupted: anything else is the user's and is never replaced.
  const fresh = inMemory || isNewDataFolder(dataDir, LOCK_FILE_NAME);
  const newFolder = fresh && !inMemory;
  if (newFolder) {
    try {
      startUnfinishedFolder(dataDir, [LOCK_FILE_NAME]);
    } catch (cause) {
      lock?.release();
      throw dataFolderError(dataDir, 'write in', cause);
    }
  }
  const release = (db: Db): Db => ({
    engine: db.engine,
    query: db.query,
    exec: db.exec,
    transaction: db.transaction,
    ...(db.batch ? { batch: db.batch } : {}),
    ...(db.copyFrom ? { copyFrom: db.copyFrom } : {}),
    async close() {
      try {
        await db.close();
        options.beforeUnlock?.();
      } finally {
        lock?.release();
      }
    },
  });
  // The engine has opened the folder whole: from now on it is a store, which no start empties.
  const finished = async <T extends Db>(db: T): Promise<T> => {
    if (newFolder) {
      try {
        finishUnfinishedFolder(dataDir);
      } catch (error) {
        await db.close().catch(() => undefined);
        throw error;
      }
    }
    return db;
  };
  const cacheDir =
    options.snapshotDir === false ? undefined : (options.snapshotDir ?? defaultSnapshotDir());
  const snapshot = fresh && cacheDir ? findSnapshot(cacheDir) : undefined;
  try {
    // The snapshot is passed as its path and read where it is unpacked, once: reading it here
    // and handing the bytes on cost three more copies of its 40 MB at the start's peak.
    const create = async (snapshotFile?: string): Promise<Db & Dumpable> => {
      if (!inMemory) {
        // A folder's engine runs on its own thread, so its work never blocks the event loop.
        // The thread starts PGlite with fsync on: PGlite's defaults turn it off. A new folder's
        // snapshot is written out file by file by that thread as it starts (this one goes on
        // meanwhile), and the engine then finds an existing data folder: PGlite's own loader
        // would hold the whole tarball, and copies of it, in the engine thread's memory (see
        // `unpackSnapshot`).
        // The folder's real path: PGlite's file system does not follow a symbolic link at its
        // root (a store folder reached through one failed with ErrnoError 44, "no such file").
        return openPgliteWorkerDb(realpathSync(dataDir), {
          ...(options.vector ? { vector: true } : {}),
          ...(snapshotFile ? { snapshot: snapshotFile } : {}),
        });
      }
      // pgvector is loaded only when embeddings are configured: it adds start-up time.
      const extensions = options.vector
        ? { vector: (await import('@electric-sql/pglite-pgvector')).vector }
        : undefined;
      useEmbeddedWasmCompiler();
      // Loaded here, not at the top: importing cohort (or using PostgreSQL) does not pay for it.
      const { PGlite: Engine, MemoryFS } = await import('@electric-sql/pglite');
      const pg = await Engine.create({
        startParams: [...Engine.defaultStartParams, ...embeddedStartParams()],
        // Compiled here, not by PGlite's loader, which left the C heaps holding freed memory.
        pgliteWasmModule: await pgliteWasmModule(),
        parsers: { [BYTEA_TYPE_ID]: parseBytea },
        // PGlite's type has a serializer return text; a byte view it sends as a binary parameter.
        serializers: { [BYTEA_TYPE_ID]: serializeBytea as unknown as (value: unknown) => string },
        ...(extensions ? { extensions } : {}),
        // The snapshot is written into the in-memory file system file by file as the engine
        // starts, before it looks for a data folder: PGlite's own loader would hold the whole
        // tarball and two more copies of it at once (≈ 80 MB above the 40 MB the files take).
        ...(snapshotFile ? { fs: snapshotMemoryFs(MemoryFS, snapshotFile) } : {}),
      });
      return { ...wrap(pg, pg), dumpDataDir: (compression) => pg.dumpDataDir(compression) };
    };
    const fromSnapshot =
      snapshot && cacheDir
        ? await create(snapshot).catch(() => {
            // A damaged snapshot: forget it, empty the folder it was unpacked into, start as new.
            discardSnapshot(cacheDir);
            if (newFolder) clearUnfinishedFolder(dataDir, [LOCK_FILE_NAME]);
            return undefined;
          })
        : undefined;
    const db = await finished(fromSnapshot ?? (await create()));
    if (!fromSnapshot && fresh && cacheDir) await saveSnapshot(db, cacheDir);
    return release(db);
  } catch (cause) {
    lock?.release();
    throw storeOpenError(dataDir, cause, fresh, freeBytes(dataDir));
  }
}

/**
 * The error of a store that failed to open, saying why in the cause's own words. PGlite and its
 * thread can throw things that are not Errors (its file system throws `{ name: 'ErrnoError',
 * errno }`), which `String()` made "[object Object]": {@link describeCause} reads them.
 *
 * @example
 * storeOpenError('.cohort', { name: 'ErrnoError', errno: 44 }, true);
 * // CohortError: Cannot open the store in .cohort: {"name":"ErrnoError","errno":44} (no such file or directory).
 */
export function storeOpenError(
  dataDir: string,
  cause: unknown,
  fresh: boolean,
  free?: number,
): CohortError {
  const described = describeCause(cause);
  const reason = readableAbort(described) + errnoWords(cause, described);
  // A full disk first: PGlite then fails as it does on damaged files, and the advice for those
  // (remove the folder) deleted intact stores.
  const advice =
    lowSpaceAdvice(dataDir, cause, described, free) ?? (fresh ? '' : cannotStartAdvice(reason));
  return new CohortError(
    'retrieval_unavailable',
    `Cannot open the store in ${dataDir}: ${reason}.${advice}`,
    {
      cause,
    },
  );
}

/** What PGlite's WebAssembly says when PostgreSQL stops the process (a PANIC, such as on a damaged write-ahead log). */
const ABORTED = 'Aborted()';

/**
 * Reasons that mean the folder's files are damaged: PGlite could not start from them, PostgreSQL
 * stopped on them, or a page it read back was not one it wrote ("invalid page in block 3 of
 * relation base/5/1255" when a catalog file was overwritten).
 */
const DAMAGED =
  /failed to initialize|Aborted\(\)|invalid page in block|could not read block|checksum mismatch/;

/**
 * The reason of an open that PostgreSQL itself stopped, in words: PGlite's own is the
 * compiler's "Aborted(). Build with -sASSERTIONS for more info.", which a damaged write-ahead
 * log gave with no hint of what to do.
 */
function readableAbort(reason: string): string {
  if (!reason.startsWith(ABORTED)) return reason;
  return `the embedded PostgreSQL stopped while reading its files (${ABORTED})`;
}

/**
 * What to do about a folder holding PostgreSQL files PGlite cannot start from: they are damaged,
 * or were left half-written by a start killed while making a new store before new folders were
 * marked unfinished (see `unfinished-folder.ts`), which no start empties on its own.
 */
function cannotStartAdvice(reason: string): string {
  if (!DAMAGED.test(reason)) return '';
  return ' Its PostgreSQL files are damaged, or incomplete (a first start killed while writing them, by a cohort older than this one): restore the folder from a backup or, if it holds nothing you need, remove it and start again.';
}
