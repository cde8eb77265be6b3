/**
 * reStructuredText's drawn tables, read into rows of cells. A grid table is drawn with `+`, `-`,
 * `=` and `|`; a simple table is columns of words under runs of `=`. Read as prose, a table's
 * rows ran together into one paragraph and its header row was a row like the others, so an answer
 * could not say which column a cell was in.
 */

/** A table as rows of cells; the first `headerRows` rows name its columns. */
export interface TableCells {
  rows: string[][];
  headerRows: number;
}

/** A grid table's border or row separator: "+------+-----+", or "+======+=====+" under a header. */
export const GRID_BORDER = /^\s*\+(?:[-=]+\+)+\s*$/;
/** A simple table's border: two or more runs of "=" ("=========  ========="). */
export const SIMPLE_BORDER = /^\s*=+(?:[ \t]+=+)+\s*$/;
/** A simple table's column-span rule ("-------  --------"), drawn under a spanning header cell. */
const SIMPLE_SPAN_RULE = /^\s*-+(?:[ \t]+-+)*\s*$/;

/**
 * Where the grid table whose top border is `lines[start]` ends: the index after its last line (a
 * border or a row line, each starting with `+` or `|`).
 *
 * @example
 * gridTableEnd(['+--+', '| a|', '+--+', 'After.'], 0); // 3
 */
export function gridTableEnd(lines: readonly string[], start: number): number {
  let end = start + 1;
  while (end < lines.length && /^\s*[+|]/.test(lines[end] ?? '')) end += 1;
  return end;
}

/**
 * A grid table's rows of cells: the columns are where its top border has a `+`, a row is every
 * line between two borders (a cell's lines joined), and the rows above a `+===+` border are its
 * header.
 *
 * @example
 * gridTable(['+-----+-----+', '| Opt | Use |', '+=====+=====+', '| -i  | Runs|', '+-----+-----+']);
 * // { rows: [['Opt', 'Use'], ['-i', 'Runs']], headerRows: 1 }
 */
export function gridTable(lines: readonly string[]): TableCells {
  const border = lines[0] ?? '';
  const edges: number[] = [];
  for (let at = border.indexOf('+'); at >= 0; at = border.indexOf('+', at + 1)) edges.push(at);
  const rows: string[][] = [];
  let headerRows = 0;
  let block: string[] = [];
  const closeRow = () => {
    if (block.length === 0) return;
    // A column edge no line of the row draws (`|`, or `+` of a rule under part of it) is inside a
    // cell spanning columns: its text goes whole in the first of them, the others left empty.
    const drawn = (edge: number) => block.every((line) => /[|+]/.test(line[edge] ?? ''));
    const cells = edges.slice(0, -1).map((edge, column) => {
      if (column > 0 && !drawn(edge)) return '';
      let end = column + 1;
      while (end < edges.length - 1 && !drawn(edges[end] ?? 0)) end += 1;
      return (
        block
          .map((line) =>
            line
              .slice(edge + 1, edges[end])
              .replace(/\|/g, ' ')
              .trim(),
          )
          // A rule drawn under one cell of a row whose other cell spans rows is no text.
          .filter((part) => part !== '' && !/^[-=]{3,}$/.test(part))
          .join(' ')
      );
    });
    if (cells.some((cell) => cell !== '')) rows.push(cells);
    block = [];
  };
  for (const line of lines.slice(1)) {
    if (GRID_BORDER.test(line)) {
      closeRow();
      if (line.includes('=')) headerRows = rows.length;
    } else block.push(line);
  }
  closeRow();
  return { rows, headerRows };
}

/**
 * Where the simple table whose top border is `lines[start]` ends: the index after the border that
 * closes it (a border followed by a blank line or the end of the text). Undefined when none does:
 * docutils refuses such a table, and taking the rest of the file as its rows made every later
 * section title a row.
 *
 * @example
 * simpleTableEnd(['==  ==', 'a   b', '==  ==', '', 'After.'], 0); // 3
 */
export function simpleTableEnd(lines: readonly string[], start: number): number | undefined {
  for (let at = start + 1; at < lines.length; at++) {
    if (!SIMPLE_BORDER.test(lines[at] ?? '')) continue;
    if ((lines[at + 1] ?? '').trim() === '') return at + 1;
  }
  return undefined;
}

/**
 * A simple table's rows of cells: the columns are the runs of `=` of its top border (the last one
 * runs to the end of the line), a line whose first column is blank goes on the row above, and the
 * rows above its second border are its header when a third border closes it.
 *
 * @example
 * simpleTable(['=====  ======', 'Value  Means', '=====  ======', '1      mean', '=====  ======']);
 * // { rows: [['Value', 'Means'], ['1', 'mean']], headerRows: 1 }
 */
export function simpleTable(lines: readonly string[]): TableCells {
  const border = lines[0] ?? '';
  const columns: number[] = [];
  for (const match of border.matchAll(/=+/g)) columns.push(match.index);
  const rows: string[][] = [];
  const borders: number[] = [];
  for (const line of lines.slice(1)) {
    if (SIMPLE_BORDER.test(line)) {
      borders.push(rows.length);
      continue;
    }
    if (line.trim() === '' || SIMPLE_SPAN_RULE.test(line)) continue;
    const cells = columns.map((start, column) => line.slice(start, columns[column + 1]).trim());
    const last = rows.at(-1);
    if (cells[0] === '' && last)
      cells.forEach((cell, i) => (last[i] = `${last[i]} ${cell}`.trim()));
    else rows.push(cells);
  }
  // Three borders (top, under the header, bottom): the rows before the second are the header.
  const headerRows = borders.length >= 2 ? (borders[0] ?? 0) : 0;
  return { rows, headerRows };
}
