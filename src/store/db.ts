/** The SQL surface both engines (PGlite, PostgreSQL) provide; queries use `$1` parameters. */
export interface Db {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** Runs several statements with no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction: all of it or none of it. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** `pglite` or `postgres`, for messages and health checks. */
  readonly engine: 'pglite' | 'postgres';
}
