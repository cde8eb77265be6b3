/**
 * A Markdown table's delimiter row, the rule under its header row ("| --- | :---: |", or GFM's
 * "--- | ---" without outer pipes): every cell is dashes, with a colon at either end for its
 * alignment. The chunker repeats the header above it in each piece a cut table goes on in; the
 * sentence splitter reads the row above it as the column names, never as a row of the table. One
 * test for both, so a table the chunker labels is a table the answer quotes by column.
 */
export function isTableRule(line: string): boolean {
  if (!line.includes('|')) return false;
  const cells = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
  return cells.every((cell) => /^\s*:?-+:?\s*$/.test(cell));
}
