import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { CohortError } from '../errors/index.js';
import type { Db } from './db.js';

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

/**
 * Opens the embedded engine: PGlite in `dataDir` (created if missing), or in memory for
 * `memory://`; `vector` loads pgvector for embeddings. Only one process may hold a data folder at a time.
 *
 * @example
 * const db = await openPgliteDb('.cohort');
 */
export async function openPgliteDb(
  dataDir: string,
  options: { vector?: boolean } = {},
): Promise<Db> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  try {
    // pgvector is loaded only when embeddings are configured: it adds start-up time.
    const extensions = options.vector
      ? { vector: (await import('@electric-sql/pglite-pgvector')).vector }
      : undefined;
    const pg = await PGlite.create(
      inMemory ? undefined : dataDir,
      extensions ? { extensions } : {},
    );
    return wrap(pg, pg);
  } catch (cause) {
    throw new CohortError(
      'retrieval_unavailable',
      `Cannot open the store in ${dataDir}: ${cause instanceof Error ? cause.message : String(cause)}. Is another cohort process using it?`,
      { cause },
    );
  }
}
