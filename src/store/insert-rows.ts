import type { Db, Statement } from './db.js';

/**
 * Rows per multi-row INSERT. A statement carries rows × columns parameters, and PostgreSQL allows
 * at most 65,535 of them; 500 rows of up to 100 columns stay under that, and fewer round trips are
 * what makes an ingestion fast on both engines.
 */
export const INSERT_BATCH_ROWS = 500;

/**
 * Inserts `rows` into `table` with as few statements as possible: one multi-row
 * `INSERT … VALUES (…), (…)` per {@link INSERT_BATCH_ROWS} rows. `casts` gives a column's SQL cast
 * (`{ embedding: 'vector' }`); `suffix` is appended to every statement (`ON CONFLICT …`). Table and
 * column names are the caller's constants, never user input. Run it inside a transaction when the
 * rows must land together.
 *
 * @example
 * await insertRows(tx, 'documents', ['source', 'title'], [['a.md', 'A'], ['b.md', 'B']]);
 */
export async function insertRows(
  db: Pick<Db, 'query'>,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  options: { casts?: Record<string, string>; suffix?: string } = {},
): Promise<void> {
  for (const statement of insertStatements(table, columns, rows, options))
    await db.query(statement.sql, statement.params);
}

/**
 * The statements {@link insertRows} runs, without running them (for a batch).
 *
 * @example
 * const statements = insertStatements('documents', ['source', 'title'], [['a.md', 'A']]);
 */
export function insertStatements(
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  options: { casts?: Record<string, string>; suffix?: string } = {},
): Statement[] {
  const batch = Math.max(1, Math.min(INSERT_BATCH_ROWS, Math.floor(65_535 / columns.length)));
  const statements: Statement[] = [];
  for (let start = 0; start < rows.length; start += batch) {
    const slice = rows.slice(start, start + batch);
    const params: unknown[] = [];
    const tuples = slice.map((row) => {
      const placeholders = columns.map((column, index) => {
        params.push(row[index]);
        const cast = options.casts?.[column];
        return cast ? `$${params.length}::${cast}` : `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    statements.push({
      sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}${options.suffix ? ` ${options.suffix}` : ''}`,
      params,
    });
  }
  return statements;
}
