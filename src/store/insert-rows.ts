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

/** A character `COPY`'s text format reads as an escape or a separator, written escaped. */
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};

/** One value in `COPY`'s text format: `\N` for null, else its text with `\`, tab, LF and CR escaped. */
function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = String(value);
  return COPY_SPECIAL.test(text)
    ? text.replace(COPY_SPECIALS, (special) => COPY_ESCAPES[special] ?? special)
    : text;
}

/**
 * `rows` in `COPY … FROM`'s text format (PostgreSQL's default): a line per row, its values
 * separated by tabs, each as the engine would have read it as a query parameter (a string's text,
 * a number's digits; null as `\N`). No value may hold NUL, which a text column cannot either.
 *
 * @example
 * copyText([['a.md', 'line 1\nline 2'], ['b.md', null]]); // 'a.md\tline 1\\nline 2\nb.md\t\\N\n'
 */
export function copyText(rows: readonly (readonly unknown[])[]): string {
  let text = '';
  for (const row of rows) text += row.map(copyValue).join('\t') + '\n';
  return text;
}

/**
 * Sends `rows` for `table` without waiting for the engine's answers, returning them: one
 * `COPY … FROM` when `db` can load rows that way (the embedded engine, see `Db.copyFrom`), else
 * {@link insertStatements}' multi-row INSERTs, all sent at once. Run it inside a transaction
 * when the rows must land together.
 *
 * @example
 * await Promise.all(sendRows(tx, 'documents', ['source', 'title'], [['a.md', 'A']]));
 */
export function sendRows(
  db: Pick<Db, 'query' | 'copyFrom'>,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<unknown>[] {
  if (rows.length === 0) return [];
  if (db.copyFrom) return [db.copyFrom(table, columns, copyText(rows))];
  return insertStatements(table, columns, rows).map(({ sql, params }) => db.query(sql, params));
}

/**
 * The statement PGlite's `Db.copyFrom` runs: `COPY` reading the rows, in text format and UTF-8,
 * from the file PGlite hands it (`/dev/blob`, the query's `blob` option).
 *
 * @example
 * copySql('chunks', ['id', 'text']); // "COPY chunks (id, text) FROM '/dev/blob' WITH (ENCODING 'UTF8')"
 */
export function copySql(table: string, columns: readonly string[]): string {
  return `COPY ${table} (${columns.join(', ')}) FROM '/dev/blob' WITH (ENCODING 'UTF8')`;
}
