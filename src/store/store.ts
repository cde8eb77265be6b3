import { statSync } from 'node:fs';
import {
  DEFAULT_MEMORY_KEEP_RUNS,
  DEFAULT_MEMORY_KEEP_SESSIONS,
  undecodedPathProblem,
  type CohortConfig,
} from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { BuildCacheRepo } from './build-cache-repo.js';
import { ChunkRepo } from './chunk-repo.js';
import { EmbeddingRepo } from './embedding-repo.js';
import type { Db } from './db.js';
import { MemoryTraces } from './memory-traces.js';
import { MetaRepo } from './meta-repo.js';
import { migrate } from './migrations.js';
import { openPgliteDb } from './pglite-db.js';
import { openPostgresDb } from './postgres-db.js';
import { OwnerRepo } from './owner-repo.js';
import { RunRepo } from './run-repo.js';
import { foldSessionJournal } from './session-journal.js';
import { SessionRepo } from './session-repo.js';
import { invalidateStartCache } from './start-cache.js';
import { foldTraceJournal } from './trace-journal.js';
import type { FolderLock } from './folder-lock.js';

/** Everything cohort keeps: chunks, sessions and runs, on one engine. */
export interface Store {
  readonly db: Db;
  readonly chunks: ChunkRepo;
  readonly sessions: SessionRepo;
  readonly runs: RunRepo;
  /** Which API key owns a session or a run (see `OwnerRepo`). */
  readonly owners: OwnerRepo;
  /** Named values such as the secret that keys derived session ids. */
  readonly meta: MetaRepo;
  /** Chunk vectors (pgvector); used only when an embedding model is configured. */
  readonly embeddings: EmbeddingRepo;
  /** Values built from the chunks (lexical index, router knowledge), saved to load at start-up. */
  readonly cache: BuildCacheRepo;
  /** True when the engine answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Wraps an open engine as a {@link Store}, applying migrations. */
export async function createStore(
  db: Db,
  options: {
    onTraceError?: (cause: unknown, runIds: string[]) => void;
    /** Runs before any ingestion writes (see `ChunkRepo`). */
    beforeChunkWrite?: () => void;
    /** True for a store that ends with the process: its build cache keeps nothing (see `BuildCacheRepo`). */
    discardBuildCache?: boolean;
    /** Keep only this many of the most recent finished runs (see `RunRepo`); unset keeps all. */
    keepRuns?: number;
    /** How long a claim on a run lasts unrenewed (see `RunRepo`); tests shorten it. */
    claimLeaseMs?: number;
    /** Keep only this many of the most recently active sessions (see `SessionRepo`); unset keeps all. */
    keepSessions?: number;
    /**
     * Keep run traces in this process (`MemoryTraces`, bounded by `keepRuns` too) instead of the
     * engine: for a store that ends with the process, whose engine would only grow with them.
     */
    tracesInMemory?: boolean;
  } = {},
): Promise<Store> {
  await migrate(db);
  const { tracesInMemory, keepSessions, ...runOptions } = options;
  const runs = new RunRepo(db, {
    ...runOptions,
    ...(tracesInMemory
      ? {
          traces: new MemoryTraces(
            options.keepRuns === undefined ? {} : { keepRuns: options.keepRuns },
          ),
        }
      : {}),
  });
  // An embedded store has one writer, this process (its folder is locked; memory is private),
  // so recent sessions' messages can be served from memory; PostgreSQL may have others.
  const sessions = new SessionRepo(db, {
    exclusive: db.engine === 'pglite',
    ...(keepSessions === undefined ? {} : { keepSessions }),
  });
  return {
    db,
    chunks: new ChunkRepo(
      db,
      options.beforeChunkWrite ? { beforeWrite: options.beforeChunkWrite } : {},
    ),
    sessions,
    runs,
    owners: new OwnerRepo(db),
    meta: new MetaRepo(db),
    embeddings: new EmbeddingRepo(db),
    cache: new BuildCacheRepo(db, { discard: options.discardBuildCache === true }),
    async ping() {
      try {
        await db.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      // Traces queued by answers just given are written before the engine goes away, and a
      // deletion of old sessions under way ends first.
      await runs.flushTraces();
      await sessions.settled();
      await db.close();
    },
  };
}

/**
 * Opens the configured store: PostgreSQL when `databaseUrl` is set, else PGlite in `dataDir`
 * (`memory://` keeps it in memory). `vector` loads pgvector into PGlite for embeddings. The store
 * keeps the `keepRuns` most recent runs; unset, `memory://` keeps {@link DEFAULT_MEMORY_KEEP_RUNS}
 * (nothing else would ever empty it) and a folder or PostgreSQL keeps all. `memory://` keeps its
 * run traces out of its engine (see `MemoryTraces`). It keeps the `keepSessions` most recently
 * active sessions; unset, `memory://` keeps {@link DEFAULT_MEMORY_KEEP_SESSIONS} and a folder or
 * PostgreSQL keeps all.
 *
 * @example
 * const store = await openStore({ dataDir: '.cohort' });
 */
export async function openStore(
  config: Pick<CohortConfig, 'dataDir' | 'databaseUrl'> &
    Partial<Pick<CohortConfig, 'keepRuns' | 'keepSessions'>>,
  options: {
    vector?: boolean;
    /** Told when PostgreSQL drops an idle pooled connection (a restart); the pool replaces it. */
    onConnectionLost?: (error: Error) => void;
    /** Told when a batch of traces could not be written (they are dropped; answers are not). */
    onTraceError?: (cause: unknown, runIds: string[]) => void;
    /** A data folder's lock, already taken by the caller (see `openPgliteDb`). */
    lock?: FolderLock;
    /** A data folder's hook: runs on close, engine closed, folder lock still held. */
    beforeUnlock?: () => void;
  } = {},
): Promise<Store> {
  const folder = storeFolder(config);
  if (folder) assertDataFolder(folder);
  const db = config.databaseUrl
    ? await openPostgresDb(
        config.databaseUrl,
        options.onConnectionLost ? { onIdleError: options.onConnectionLost } : {},
      )
    : await openPgliteDb(config.dataDir, options);
  // A data folder's start cache is a copy of its chunks: it goes before they change.
  const keepRuns = config.keepRuns ?? (inMemory(config) ? DEFAULT_MEMORY_KEEP_RUNS : undefined);
  const keepSessions =
    config.keepSessions ?? (inMemory(config) ? DEFAULT_MEMORY_KEEP_SESSIONS : undefined);
  let store: Store;
  try {
    store = await createStore(db, {
      ...(keepRuns === undefined ? {} : { keepRuns }),
      ...(keepSessions === undefined ? {} : { keepSessions }),
      ...(options.onTraceError ? { onTraceError: options.onTraceError } : {}),
      ...(folder ? { beforeChunkWrite: () => invalidateStartCache(folder) } : {}),
      discardBuildCache: inMemory(config),
      tracesInMemory: inMemory(config),
    });
    // Traces and session turns journaled by starts that never opened the engine go in before
    // anything reads it.
    if (folder) {
      await foldTraceJournal(folder, store);
      await foldSessionJournal(folder, store.db);
    }
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return store;
}

/**
 * Refuses a data folder path that names something other than a folder (a file, say) with an
 * `invalid_input` error naming it, instead of the engine's `ENOTDIR` later. A path that does not
 * exist is fine (the store creates it) unless its name holds U+FFFD (see `undecodedPathProblem`).
 *
 * @example
 * assertDataFolder('notes.md'); // throws: "notes.md" is a file, not a folder
 */
export function assertDataFolder(dir: string): void {
  let stats;
  try {
    stats = statSync(dir);
  } catch {
    // A folder that exists is used whatever its name; a new one is not made under a name the
    // user never gave (`--data-dir $'d\xfe'` made a folder 'd\uFFFD').
    const undecoded = undecodedPathProblem(dir);
    if (undecoded)
      throw new CohortError(
        'invalid_input',
        `The data folder "${dir}" cannot be made: ${undecoded}.`,
        {
          field: 'data-dir',
          file: dir,
        },
      );
    return;
  }
  if (!stats.isDirectory()) {
    throw new CohortError(
      'invalid_input',
      `The data folder "${dir}" is not a folder. Pass --data-dir (or COHORT_DATA_DIR) a folder; it is created if it does not exist.`,
      { field: 'data-dir', file: dir },
    );
  }
}

/** True for `memory://` (and no PostgreSQL): the store ends with the process. */
function inMemory(config: Pick<CohortConfig, 'databaseUrl' | 'dataDir'>): boolean {
  return !config.databaseUrl && config.dataDir.startsWith('memory://');
}

/**
 * The folder an embedded (PGlite) store keeps its files in; undefined for PostgreSQL and for
 * `memory://`, which have none (and so no start cache).
 *
 * @example
 * storeFolder(config); // '.cohort', or undefined with DATABASE_URL set
 */
export function storeFolder(
  config: Pick<CohortConfig, 'databaseUrl' | 'dataDir'>,
): string | undefined {
  return config.databaseUrl || config.dataDir.startsWith('memory://') ? undefined : config.dataDir;
}
