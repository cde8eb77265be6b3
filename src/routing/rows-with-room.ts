/**
 * `rows` (rows of numbers one after another, the first `used` numbers taken) with room for
 * `length` more: itself when they fit, else a copy twice as long (the rest zeros). Routing keeps
 * what it has summed for a word or a bundle as such rows, so that reading one touches one array.
 *
 * @example
 * rows = rowsWithRoom(rows, used, rowLength);
 * rows.set(row, used);
 * used += rowLength;
 */
export function rowsWithRoom(
  rows: Float64Array<ArrayBuffer>,
  used: number,
  length: number,
): Float64Array<ArrayBuffer> {
  if (used + length <= rows.length) return rows;
  const grown = new Float64Array(rows.length * 2);
  grown.set(rows);
  return grown;
}
