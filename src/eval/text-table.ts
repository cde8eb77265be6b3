/** A share as a percentage with one decimal, as every evaluation report prints it. */
export const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/**
 * Rows aligned into columns for a terminal: the first column padded right, the others left, two
 * spaces between; one string per row.
 *
 * @example
 * alignTable([['', 'cases'], ['glossary', '12']]); // ['          cases', 'glossary     12']
 */
export function alignTable(rows: string[][]): string[] {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
}
