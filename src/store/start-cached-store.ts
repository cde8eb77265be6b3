import { CohortError } from '../errors/index.js';
import type { ChunkRecord } from '../schema/index.js';
import { chunkContentHash } from './chunk-repo.js';
import {
  invalidateStartCache,
  readStartCache,
  writeStartCache,
  type StartCache,
} from './start-cache.js';
import type { Store } from './store.js';

/** A store that starts answering from its data folder's start cache (see {@link startCachedStore}). */
export interface StartCachedStore {
  store: Store;
  /**
   * Settles once the engine is open: resolves when the start cache was current (or there was
   * none), rejects with a `conflict` error when it was not. Nothing read from it may be shown or
   * saved before this resolves; when it rejects, the caller starts again without the cache.
   */
  current: Promise<void>;
  /** True when reads were served from a start cache (before `current` settled). */
  readonly usedCache: boolean;
  /** True once `current` rejected because the cache did not match the store. */
  readonly stale: boolean;
}

type Method = (...args: unknown[]) => unknown;

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
 * were changed meanwhile.
 *
 * @example
 * const { store, current } = startCachedStore('.cohort', openStore(config));
 */
export function startCachedStore(dataDir: string, opening: Promise<Store>): StartCachedStore {
  const cached = readStartCache(dataDir);
  let usedCache = false;
  let confirmed = false;
  let stale = false;
  let live: Store | undefined;
  const ready = opening.then(async (real) => {
    if (!usedCache || !cached) {
      live = real;
      return real;
    }
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
    live = real;
    return real;
  });
  const current = ready.then(() => undefined);
  // Settled here too: a caller that never waits on `current` sees the failure in its calls.
  current.catch(() => undefined);

  // What this process read from the engine, to write the next start cache from.
  let read: { chunks: ChunkRecord[] } | undefined;
  const entries = new Map(cached?.entries);
  let missing = !cached;

  /** Calls `method` of the engine's `part` once it is open and confirmed current. */
  const later =
    (part: keyof Store, method: PropertyKey) =>
    (...args: unknown[]): Promise<unknown> => {
      const result = ready.then((real) => methodsOf(real[part])[method]?.(...args));
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
      missing = true;
      // The engine's own hook deletes the start cache before the write (see `openStore`).
      const result = await methodsOf((await ready).chunks)[method]?.(...args);
      read = undefined;
      return result;
    };
  const chunks = repository('chunks', {
    all: async () => {
      if (cached && !live) {
        usedCache = true;
        return cached.chunks.map((chunk) => ({ ...chunk }));
      }
      const real = await ready;
      const all = await real.chunks.all();
      read ??= { chunks: all };
      return all;
    },
    count: fromCache(
      (cache) => cache.chunks.length,
      async () => (await ready).chunks.count(),
    ),
    version: fromCache(
      (cache) => cache.version,
      async () => (await ready).chunks.version(),
    ),
    contentHash: fromCache(
      (cache) => cache.contentHash,
      async () => (await ready).chunks.contentHash(),
    ),
    applyIngestion: write('applyIngestion'),
    upsertDocument: write('upsertDocument'),
    removeDocument: write('removeDocument'),
  });
  const cache = repository('cache', {
    get: async (name: unknown, key: unknown) => {
      const saved = typeof name === 'string' ? entries.get(name) : undefined;
      if (!live && saved && saved.key === key) {
        usedCache = true;
        return new Uint8Array(saved.data);
      }
      const data = await (await ready).cache.get(String(name), String(key));
      if (data) {
        missing = true;
        entries.set(String(name), { key: String(key), data });
      }
      return data;
    },
    put: async (name: unknown, key: unknown, data: unknown) => {
      await (await ready).cache.put(String(name), String(key), data as Uint8Array);
      missing = true;
      entries.set(String(name), { key: String(key), data: data as Uint8Array });
    },
  });

  const store: Store = {
    get db() {
      return live?.db ?? repository('db', {});
    },
    chunks,
    cache,
    sessions: repository('sessions', {}),
    runs: repository('runs', {}),
    meta: repository('meta', {}),
    embeddings: repository('embeddings', {}),
    ping: async () => (await ready.catch(() => undefined))?.ping() ?? false,
    async close() {
      const real = await opening.catch(() => undefined);
      if (!real) return;
      try {
        // The chunks read from the engine, or the cache's once the engine confirmed them.
        const saved = read?.chunks ?? (confirmed ? cached?.chunks : undefined);
        if (live && missing && saved) {
          const version = await real.chunks.version();
          const contentHash = chunkContentHash(saved);
          // Chunks that changed since they were read (through another handle) are not saved:
          // the next start reads the engine and writes the cache then.
          if (contentHash === (await real.chunks.contentHash()))
            writeStartCache(dataDir, { version, contentHash, chunks: saved, entries });
        }
      } catch {
        // The start cache only saves time: the next start reads the engine instead.
      } finally {
        await real.close();
      }
    },
  };
  return {
    store,
    current,
    get usedCache() {
      return usedCache;
    },
    get stale() {
      return stale;
    },
  };
}
