/** One SQL statement with its `$1` parameters. */
export interface Statement {
  sql: string;
  params?: unknown[];
}

/** The SQL surface both engines (PGlite, PostgreSQL) provide; queries use `$1` parameters. */
export interface Db {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** Runs several statements with no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction: all of it or none of it. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Runs `statements` in one transaction, all or none, returning nothing: what a write that needs
   * no answer between its statements (a turn, a trace) can use to reach the engine in one round
   * trip. Engines without it run them through {@link Db.transaction} (see {@link runBatch}).
   */
  batch?(statements: readonly Statement[]): Promise<void>;
  /**
   * Loads `text`, rows in `COPY`'s text format (`copyText`), into `columns` of `table` with
   * one `COPY … FROM`: what the embedded engine stores an ingestion's chunks with, at about half
   * the cost of the same rows' multi-row INSERTs. Engines without it take INSERTs
   * (`sendRows` in insert-rows.ts). Table and column names are the caller's constants, never user input.
   */
  copyFrom?(table: string, columns: readonly string[], text: string): Promise<void>;
  /**
   * Inside a transaction: tells the engine to end it on its own once it has run every statement
   * sent in it so far, committing it when none failed and rolling it back when one did, instead of
   * waiting for this thread to hear their answers and send the commit. For a caller that sends
   * its last statement, then keeps this thread busy (`cohort ingest` trains the router while the
   * engine writes the chunks: the commit waited for the training, and the saved index's write,
   * queued behind the transaction, with it). Nothing may be sent in the transaction after it; the
   * transaction's own end then only hears the outcome. Engines without it end the transaction as
   * usual, once the caller's function returns.
   */
  commitWhenAnswered?(): void;
  close(): Promise<void>;
  /** `pglite` or `postgres`, for messages and health checks. */
  readonly engine: 'pglite' | 'postgres';
}

/**
 * Runs `statements` in one transaction on `db`: through its `batch` (one round trip, and on the
 * embedded engine's thread one commit for many concurrent batches) when it has one, else through
 * `transaction`.
 *
 * @example
 * await runBatch(db, [{ sql: 'INSERT INTO t VALUES ($1)', params: [1] }]);
 */
export async function runBatch(db: Db, statements: readonly Statement[]): Promise<void> {
  if (statements.length === 0) return;
  if (db.batch) return db.batch(statements);
  await db.transaction(async (tx) => {
    for (const statement of statements) await tx.query(statement.sql, statement.params ?? []);
  });
}
