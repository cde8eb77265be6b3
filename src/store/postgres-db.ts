import type pg from 'pg';
import { CohortError } from '../errors/index.js';
import type { Db } from './db.js';

type Client = Pick<pg.PoolClient, 'query'>;

function wrapClient(client: Client): Db {
  return {
    engine: 'postgres',
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await client.query(sql, params);
      return { rows: result.rows as Row[] };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>) {
      return fn(wrapClient(client));
    },
    async close() {},
  };
}

/**
 * Opens the PostgreSQL engine on `url` (a pool shared by stateless server processes). The pool
 * survives the database restarting: dropped connections are replaced on the next query
 * (`onIdleError` hears about the ones dropped while idle).
 *
 * @example
 * const db = await openPostgresDb(process.env.DATABASE_URL!);
 */
export async function openPostgresDb(
  url: string,
  options: { onIdleError?: (error: Error) => void } = {},
): Promise<Db> {
  // Loaded here, not at the top: most runs use PGlite and never need the driver.
  const { default: driver } = await import('pg');
  const pool = new driver.Pool({ connectionString: url, max: 10 });
  // An idle pooled connection that the server drops (a restart, a failover) is reported here.
  // Without a listener Node would crash the process; the pool discards that connection and the
  // next query opens a fresh one, so the server keeps running and reconnects by itself.
  pool.on('error', (error) => options.onIdleError?.(error));
  try {
    await pool.query('SELECT 1');
  } catch (cause) {
    await pool.end().catch(() => undefined);
    throw new CohortError(
      'retrieval_unavailable',
      `Cannot connect to PostgreSQL at DATABASE_URL: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  return {
    engine: 'postgres',
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await pool.query(sql, params);
      return { rows: result.rows as Row[] };
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>) {
      const client = await pool.connect();
      // A checked-out connection is not covered by the pool's idle listener: when the server
      // ends it between two statements of the transaction (a restart), the client emits 'error'
      // and, unheard, that would crash the process. Heard here, the failure reaches the caller
      // through the next statement, and the broken connection is destroyed, not reused.
      let lost: Error | undefined;
      const onError = (error: Error) => {
        lost = error;
        options.onIdleError?.(error);
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(wrapClient(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot even roll back is broken: it is destroyed below.
        if (!lost)
          await client.query('ROLLBACK').catch((rollback: unknown) => {
            lost = rollback instanceof Error ? rollback : new Error(String(rollback));
          });
        throw error;
      } finally {
        client.off('error', onError);
        // release(error) destroys the connection; release() returns it to the pool.
        client.release(lost);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
