import { CohortError } from '../errors/index.js';
import type { ChunkRecord, Message } from '../schema/index.js';
import type { SpanRecord } from '../telemetry/index.js';
import { chunkContentHash, type DocumentWrite, type UpsertOutcome } from './chunk-repo.js';
import { acquireFolderLock, type FolderLock } from './folder-lock.js';
import { chunksAfterIngestion } from './ingested-chunks.js';
import type { TracedRun } from './run-repo.js';
import { openSessionJournal, type SessionJournal } from './session-journal.js';
import {
  MAX_SEALED_SESSIONS,
  readStartCacheSeal,
  sealStartCache,
  type StartCacheSeal,
} from './start-cache-seal.js';
import {
  invalidateStartCache,
  readStartCache,
  readStartCacheStamp,
  writeStartCache,
  type StartCache,
} from './start-cache.js';
import type { Store } from './store.js';
import { appendTraceJournal } from './trace-journal.js';

/** A store that starts answering from its data folder's start cache (see {@link startCachedStore}). */
export interface StartCachedStore {
  store: Store;
  /**
   * Settles once the engine is open: resolves when the start cache was current (or there was
   * none), rejects with a `conflict` error when it was not. Nothing read from it may be shown or
   * saved before this resolves; when it rejects, the caller starts again without the cache. A
   * detached start from a sealed cache resolves it at once.
   */
  current: Promise<void>;
  /** True when reads were served from a start cache (before `current` settled). */
  readonly usedCache: boolean;
  /** True once `current` rejected because the cache did not match the store. */
  readonly stale: boolean;
  /** True while the engine has not been opened (a detached start that needed nothing of it). */
  readonly detached: boolean;
}

/** What `startCachedStore` passes to the function that opens the engine (see `openStore`). */
export interface EngineHooks {
  /** The folder's lock, when the start took it already: the engine must not take it again. */
  lock?: FolderLock;
  /** To run on close with the engine closed and the lock still held (it seals the cache). */
  beforeUnlock: () => void;
}

type Method = (...args: unknown[]) => unknown;

/**
 * Every chunk as read from the engine and, when read after this store's own ingestion, the
 * engine's version and content hash at that moment (its `stamp`).
 */
interface ChunksRead {
  chunks: ChunkRecord[];
  stamp?: { version: string; contentHash: string };
}

/** `value` seen as an object of methods by name (the store's repositories). */
const methodsOf = (value: unknown) => value as Record<PropertyKey, Method>;

/**
 * Wraps the store `opening` for a PGlite data folder so a start does not wait for the engine:
 * until it is open, the reads a start makes (every chunk, their count, version and content hash,
 * saved build values) are answered from the folder's start cache when it has them, and every
 * other call waits for the engine. Once open, the engine is asked for the chunks' version and
 * content hash; only when both equal the cache's does anything waiting proceed (writes of
 * sessions and traces included), and from then on every call goes to the engine. When they
 * differ, the cache is deleted and every waiting call fails (see `current`).
 *
 * When the start did not find everything in the cache, what it read from the engine (the chunks
 * and the build values it used) is written as the new start cache on `close`, unless the chunks
 * were changed meanwhile. A start that knew the cache to be current seals it on close, with the
 * engine closed and the folder still locked (start-cache-seal.ts).
 *
 * `open` may be a function given {@link EngineHooks}: then, with `detached` (a start that needs
 * nothing of the engine but what the cache holds, such as `cohort ask` without a session), a
 * sealed cache is trusted without the engine: `current` resolves at once, the engine opens only
 * if a call needs it, and traces recorded meanwhile go to the folder's trace journal on `close`
 * (trace-journal.ts), flushed to disk before the folder lock is released. With `session` too,
 * the start stays detached only when the seal says the engine holds no message of that session:
 * its history is then read from the folder's session journal and its turn appended there, on disk
 * before `saveTurn` returns (session-journal.ts); otherwise the engine opens at once.
 *
 * @example
 * const { store, current } = startCachedStore('.cohort', openStore(config));
 */
export function startCachedStore(
  dataDir: string,
  open: Promise<Store> | ((hooks: EngineHooks) => Promise<Store>),
  options: {
    detached?: boolean;
    /**
     * Not read from the start cache at all, only written on close: for a process that changes
     * the chunks first (`cohort ingest`), which would only read a cache it is about to delete.
     */
    fresh?: boolean;
    /** The session a detached start answers in, if any (see above). */
    session?: string;
  } = {},
): StartCachedStore {
  // A detached start holds the folder's lock itself, before it reads the cache (so no other
  // process changes the folder meanwhile), and opens the engine only when a call needs it: a
  // sealed cache is the store's (start-cache-seal.ts), so nothing waits to confirm it.
  let lock: FolderLock | undefined;
  if (options.detached && typeof open === 'function') {
    try {
      lock = acquireFolderLock(dataDir);
    } catch {
      // Held by another process (or no folder yet): the engine's own open reports it.
    }
  }
  const cached = options.fresh ? undefined : readStartCache(dataDir);
  let usedCache = false;
  let confirmed = false;
  let stale = false;
  let live: Store | undefined;
  let wroteCache = false;
  // A fresh start that changed no chunk found, on close, the cache on disk to be the engine's.
  let foundCurrent = false;
  // Traces recorded while detached: journaled on close unless the engine opened meanwhile.
  const journal: { run: TracedRun; spans: readonly SpanRecord[] }[] = [];
  let chunksWritten = false;
  // The sessions the engine held when it closed (asked before it closed), for the seal.
  let heldSessions: string[] | undefined;
  const beforeUnlock = () => {
    // Current: written at close from chunks that hash to the engine's, or confirmed and not
    // changed since.
    if (stale || !(wroteCache || foundCurrent || (confirmed && !chunksWritten))) return;
    try {
      sealStartCache(dataDir, heldSessions);
    } catch {
      // The seal only saves time: without it the next start waits for the engine.
    }
  };

  const seal = lock && cached ? readStartCacheSeal(dataDir) : undefined;
  // The session's turns when the engine holds none of them: the journal's (read once, here).
  const sessionJournal =
    seal && options.session !== undefined && !seal.mayHoldSession(options.session)
      ? openSessionJournal(dataDir)
      : undefined;
  if (
    lock &&
    typeof open === 'function' &&
    !(seal && (options.session === undefined || sessionJournal))
  ) {
    // Not sealed: the engine opens now, with the lock this start already holds.
    const held = lock;
    lock = undefined;
    open = open({ lock: held, beforeUnlock });
  }
  const detachedStart = lock !== undefined;
  // The seal vouches for the cache as the engine would.
  if (detachedStart) confirmed = true;
  let opened: Promise<Store> | undefined = typeof open === 'function' ? undefined : open;
  if (!opened && !detachedStart && typeof open === 'function') opened = open({ beforeUnlock });
  const opening = (): Promise<Store> => {
    if (!opened && typeof open === 'function') {
      const held = lock;
      lock = undefined;
      opened = open({ ...(held ? { lock: held } : {}), beforeUnlock });
    }
    return opened as Promise<Store>;
  };
  let readyPromise: Promise<Store> | undefined;
  const ready = (): Promise<Store> => (readyPromise ??= confirm());
  const confirm = () =>
    opening().then(async (real) => {
      if (usedCache && cached) await check(real, cached);
      live = real;
      // Traces recorded before the engine was needed go to it, not to the journal.
      for (const trace of journal.splice(0)) real.runs.recordTrace(trace.run, trace.spans);
      return real;
    });
  /** Confirms that the start read `cached` from the store `real` holds, or fails the start. */
  const check = async (real: Store, cached: StartCache) => {
    const [version, contentHash] = [await real.chunks.version(), await real.chunks.contentHash()];
    if (version !== cached.version || contentHash !== cached.contentHash) {
      stale = true;
      invalidateStartCache(dataDir);
      throw new CohortError(
        'conflict',
        `The start cache in ${dataDir} did not match its store (it was changed by another program); it was deleted.`,
      );
    }
    confirmed = true;
  };
  const confirmed$ = detachedStart ? Promise.resolve() : ready().then(() => undefined);
  // Settled here too: a caller that never waits on `current` sees the failure in its calls.
  confirmed$.catch(() => undefined);

  // What this process read from the engine, to write the next start cache from: the chunks, and
  // (read after this store's own ingestion) the version and content hash the engine gave with them.
  let read: ChunksRead | undefined;
  // The engine's read of every chunk while it is under way or done, shared by every caller.
  let reading: Promise<ChunksRead> | undefined;
  // The chunks the last ingestion through this store wrote (added or replaced documents): the
  // next read of every chunk takes them as they are and reads only the others from the engine.
  let ingested: ChunkRecord[] | undefined;
  const entries = new Map(cached?.entries);
  let missing = !cached;

  /** Calls `method` of the engine's `part` once it is open and confirmed current. */
  const later =
    (part: keyof Store, method: PropertyKey) =>
    (...args: unknown[]): Promise<unknown> => {
      const result = ready().then((real) => methodsOf(real[part])[method]?.(...args));
      // Handled here for calls whose result is not awaited (a trace recorded); awaited ones still fail.
      result.catch(() => undefined);
      return result;
    };
  const repository = <K extends keyof Store>(part: K, own: Partial<Record<PropertyKey, Method>>) =>
    new Proxy({} as Store[K], {
      get: (_target, method) => {
        // This module's own methods first (they go to the engine themselves once it is open).
        const mine = own[method];
        if (mine) return mine;
        if (!live) return part === 'db' && method === 'engine' ? 'pglite' : later(part, method);
        const real = methodsOf(live[part]);
        const value = real[method];
        return typeof value === 'function' ? value.bind(real) : value;
      },
    });

  const fromCache =
    <T>(value: (cache: StartCache) => T, otherwise: () => Promise<T>) =>
    async (): Promise<T> => {
      if (cached && !live) {
        usedCache = true;
        return value(cached);
      }
      return otherwise();
    };

  /** A chunk write: chunks read before it are not the store's any more (see `close`). */
  const write =
    (method: string) =>
    async (...args: unknown[]): Promise<unknown> => {
      read = undefined;
      reading = undefined;
      ingested = undefined;
      missing = true;
      chunksWritten = true;
      // The engine's own hook deletes the start cache before the write (see `openStore`).
      const result = await methodsOf((await ready()).chunks)[method]?.(...args);
      read = undefined;
      reading = undefined;
      if (method === 'applyIngestion') {
        const { write: documents } = args[0] as { write: readonly DocumentWrite[] };
        const { outcomes } = result as { outcomes: Map<string, UpsertOutcome> };
        // An unchanged document keeps the chunks stored for it (an older chunker's, maybe).
        ingested = documents
          .filter(({ document }) => (outcomes.get(document.source) ?? 'unchanged') !== 'unchanged')
          .flatMap(({ chunks }) => chunks);
      }
      return result;
    };
  const chunks = repository('chunks', {
    all: async () => {
      if (cached && !live) {
        usedCache = true;
        // The same chunk objects (a copy of each would read every text out of the file).
        return cached.chunks.slice();
      }
      // Read from the engine once: the router and the index both start from every chunk, and
      // only a write through this store (which forgets `read`) changes them (the folder's lock
      // keeps other processes out).
      let pending = reading;
      if (!pending) {
        const handed = ingested;
        // Held until read, no longer: the ingestion's parsed chunks go once these are made.
        ingested = undefined;
        const started =
          (pending =
          reading =
            ready().then(async (real) =>
              handed ? afterIngestion(real, handed) : { chunks: await real.chunks.all() },
            ));
        started.then(
          (done) => {
            if (reading === started) read ??= done;
          },
          () => {
            if (reading === started) reading = undefined;
          },
        );
      }
      return (await pending).chunks.map((chunk) => ({ ...chunk }));
    },
    count: fromCache(
      (cache) => cache.chunks.length,
      async () => (await ready()).chunks.count(),
    ),
    version: fromCache(
      (cache) => cache.version,
      async () => (await ready()).chunks.version(),
    ),
    contentHash: fromCache(
      (cache) => cache.contentHash,
      async () => (await ready()).chunks.contentHash(),
    ),
    applyIngestion: write('applyIngestion'),
    upsertDocument: write('upsertDocument'),
    removeDocument: write('removeDocument'),
  });
  /**
   * Every chunk of `real` after an ingestion that wrote `written`: only the other documents' are
   * read (none for a new folder). At the ROS 2 docs reading every chunk back took 0.3 s of the
   * engine's thread. Should the content hash differ from the engine's (an order this module does
   * not know), every chunk is read after all. With them, the version and content hash the engine
   * gave, asked in the same breath (answered one after the other, no round trip between them):
   * `close` writes the start cache from them (see `stamp`).
   */
  const afterIngestion = async (
    real: Store,
    written: readonly ChunkRecord[],
  ): Promise<ChunksRead> => {
    const sources = [...new Set(written.map((chunk) => chunk.source))];
    const [others, contentHash, version] = await Promise.all([
      real.chunks.allExcept(sources),
      real.chunks.contentHash(),
      real.chunks.version(),
    ]);
    const all = chunksAfterIngestion(written, others);
    if (chunkContentHash(all) !== contentHash) return { chunks: await real.chunks.all() };
    return { chunks: all, stamp: { version, contentHash } };
  };

  const cache = repository('cache', {
    get: async (name: unknown, key: unknown) => {
      const saved = typeof name === 'string' ? entries.get(name) : undefined;
      if (!live && saved && saved.key === key) {
        usedCache = true;
        // The file's own bytes, not a copy (the lexical index reads its arrays in place): the
        // values' decoders only read them.
        return saved.data;
      }
      const data = await (await ready()).cache.get(String(name), String(key));
      if (data) {
        missing = true;
        entries.set(String(name), { key: String(key), data });
      }
      return data;
    },
    put: async (name: unknown, key: unknown, data: unknown) => {
      // Kept for the start cache as it is put, not once the engine has it: `close` may write the
      // file while the engine still writes the value. A value is keyed by what it was built from,
      // so it is right for those chunks even should the engine fail to keep it.
      missing = true;
      entries.set(String(name), { key: String(key), data: data as Uint8Array });
      await (await ready()).cache.put(String(name), String(key), data as Uint8Array);
    },
  });

  /**
   * The session methods of a start that keeps its session's turns in the journal: a session the
   * engine holds none of is the journal's while the engine stays closed. Once it opens (it folds
   * the journal in first), every session is the engine's.
   */
  function journaled(
    journal: SessionJournal,
    seal: StartCacheSeal,
  ): Partial<Record<PropertyKey, Method>> {
    const inJournal = (sessionId: string) => !opened && !seal.mayHoldSession(sessionId);
    const saveTurn = async (sessionId: string, messages: readonly Message[]) => {
      if (inJournal(sessionId)) return journal.saveTurn(sessionId, messages);
      return (await ready()).sessions.saveTurn(sessionId, messages);
    };
    return {
      history: (async (sessionId: string, limit: number, maxBytes?: number) => {
        if (inJournal(sessionId)) return journal.history(sessionId, limit, maxBytes);
        return (await ready()).sessions.history(sessionId, limit, maxBytes);
      }) as Method,
      saveTurn: saveTurn as Method,
      save: ((sessionId: string, message: Message) => saveTurn(sessionId, [message])) as Method,
    };
  }

  const store: Store = {
    get db() {
      return live?.db ?? repository('db', {});
    },
    chunks,
    cache,
    sessions: repository('sessions', sessionJournal && seal ? journaled(sessionJournal, seal) : {}),
    runs: repository('runs', {
      recordTrace: (run: unknown, spans: unknown) => {
        if (live) return live.runs.recordTrace(run as TracedRun, spans as SpanRecord[]);
        if (detachedStart && !opened) {
          journal.push({ run: run as TracedRun, spans: spans as SpanRecord[] });
          return;
        }
        void later('runs', 'recordTrace')(run, spans);
      },
    }),
    owners: repository('owners', {}),
    meta: repository('meta', {}),
    embeddings: repository('embeddings', {}),
    ping: async () => (await ready().catch(() => undefined))?.ping() ?? false,
    async close() {
      if (!opened) {
        // Detached to the end: the engine was never needed. The traces are on disk before the
        // lock goes, so the next process to open the engine writes them in (trace-journal.ts).
        try {
          appendTraceJournal(dataDir, journal.splice(0));
        } finally {
          lock?.release();
          lock = undefined;
        }
        return;
      }
      const real = await opened.catch(() => undefined);
      if (!real) return;
      let closing: Promise<void> | undefined;
      try {
        // Which sessions the engine holds, for the seal (see start-cache-seal.ts), asked with the
        // version and hash below: answered one after the other, no round trip between them.
        const sessions = live
          ? real.sessions.ids(MAX_SEALED_SESSIONS + 1).catch(() => undefined)
          : undefined;
        // The chunks read from the engine, or the cache's once the engine confirmed them.
        const saved = read?.chunks ?? (confirmed ? cached?.chunks : undefined);
        if (live && missing && saved) {
          // The engine's version and hash are asked first, and the chunks hashed here meanwhile.
          const asked = Promise.all([real.chunks.version(), real.chunks.contentHash()]);
          asked.catch(() => undefined);
          const stamp = read?.stamp;
          if (stamp) {
            // Read after this store's own ingestion, with the engine's version and hash: the file
            // is written now, while the engine finishes what it was sent before (`cohort ingest`:
            // the trained router's write, 0.16 s, as long as the file's), and kept only if the
            // engine still gives them (no other handle changed the chunks since).
            writeStartCache(dataDir, { ...stamp, chunks: saved, entries });
            const [version, stored] = (await asked.catch(() => undefined)) ?? [];
            if (version === stamp.version && stored === stamp.contentHash) wroteCache = !stale;
            else invalidateStartCache(dataDir);
            heldSessions = await sessions;
          } else {
            const contentHash = chunkContentHash(saved);
            const [version, stored] = await asked;
            heldSessions = await sessions;
            // Chunks that changed since they were read (through another handle) are not saved:
            // the next start reads the engine and writes the cache then.
            if (contentHash === stored) {
              // Nothing reads the engine after this check: it closes (on its own thread) while
              // this one writes the file. The seal (`beforeUnlock`) runs once it has closed, by
              // when the file is written and `wroteCache` set.
              closing = real.close();
              writeStartCache(dataDir, { version, contentHash, chunks: saved, entries });
              wroteCache = !stale;
            }
          }
        } else if (live && options.fresh && !chunksWritten && !stale) {
          // `cohort ingest` of a folder where nothing changed wrote no chunk and read none: the
          // cache it left is sealed again (opening the engine changed its files, which the seal
          // fingerprints) when it is still the engine's, so the next ask need not open it.
          const stamp = readStartCacheStamp(dataDir);
          const [version, stored] = stamp
            ? await Promise.all([real.chunks.version(), real.chunks.contentHash()])
            : [];
          foundCurrent = stamp?.version === version && stamp?.contentHash === stored;
          heldSessions = await sessions;
        } else heldSessions = await sessions;
      } catch {
        // The start cache only saves time: the next start reads the engine instead.
      } finally {
        await (closing ?? real.close());
      }
    },
  };
  return {
    store,
    current: confirmed$,
    get detached() {
      return detachedStart && !opened;
    },
    get usedCache() {
      return usedCache;
    },
    get stale() {
      return stale;
    },
  };
}
