import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { CohortError } from '../errors/index.js';
import type { Db } from './db.js';
import {
  defaultSnapshotDir,
  discardSnapshot,
  readSnapshot,
  saveSnapshot,
} from './pglite-snapshot.js';

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
    async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      if (!root) return fn(wrap(target, undefined));
      return root.transaction((tx) => fn(wrap(tx, undefined)));
    },
    async close() {
      await root?.close();
    },
  };
}

/** Options of {@link openPgliteDb}. */
export interface PgliteOptions {
  /** Load pgvector, for embeddings. */
  vector?: boolean;
  /**
   * Where the fresh-folder snapshot is kept (see `pglite-snapshot.ts`): a new store starts from it
   * instead of running initdb. Defaults to {@link defaultSnapshotDir}; `false` turns it off.
   */
  snapshotDir?: string | false;
}

/**
 * Opens the embedded engine: PGlite in `dataDir` (created if missing), or in memory for
 * `memory://`; `vector` loads pgvector for embeddings. Only one process may hold a data folder at a
 * time. A new store starts from the saved fresh-folder snapshot when there is one, and saves one
 * when there is not.
 *
 * @example
 * const db = await openPgliteDb('.cohort');
 */
export async function openPgliteDb(dataDir: string, options: PgliteOptions = {}): Promise<Db> {
  const inMemory = dataDir.startsWith('memory://');
  // Only a missing or empty folder is new: anything else is the user's and is never replaced.
  const fresh = inMemory || !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const cacheDir =
    options.snapshotDir === false ? undefined : (options.snapshotDir ?? defaultSnapshotDir());
  const snapshot = fresh && cacheDir ? readSnapshot(cacheDir) : undefined;
  try {
    // pgvector is loaded only when embeddings are configured: it adds start-up time.
    const extensions = options.vector
      ? { vector: (await import('@electric-sql/pglite-pgvector')).vector }
      : undefined;
    const create = (loadDataDir?: Blob) =>
      PGlite.create(inMemory ? undefined : dataDir, {
        ...(extensions ? { extensions } : {}),
        ...(loadDataDir ? { loadDataDir } : {}),
      });
    if (snapshot && cacheDir) {
      try {
        const pg = await create(snapshot);
        return wrap(pg, pg);
      } catch {
        // A damaged snapshot: forget it, empty the folder it was unpacked into, start as new.
        discardSnapshot(cacheDir);
        if (!inMemory) {
          rmSync(dataDir, { recursive: true, force: true });
          mkdirSync(dataDir, { recursive: true });
        }
      }
    }
    const pg = await create();
    if (fresh && cacheDir) await saveSnapshot(pg, cacheDir);
    return wrap(pg, pg);
  } catch (cause) {
    throw new CohortError(
      'retrieval_unavailable',
      `Cannot open the store in ${dataDir}: ${cause instanceof Error ? cause.message : String(cause)}. Is another cohort process using it?`,
      { cause },
    );
  }
}
