import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences.js';

describe('splitSentences: hard-wrapped paragraphs', () => {
  it('joins a line that stops mid-sentence with the prose line after it', () => {
    const text = [
      'Every bed of the garden has its own valve, and the default valve of a bed is a',
      'Slow Drip Valve.',
      'It opens at dawn.',
      '',
      'Valves come in three kinds:',
      '- slow drip',
      '- spray',
    ].join('\n');
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Every bed of the garden has its own valve, and the default valve of a bed is a Slow Drip Valve.',
      'It opens at dawn.',
      'Valves come in three kinds:',
      'slow drip',
      'spray',
    ]);
  });

  it("keeps a nested item's indent, so a list's outer items can be told from their details", () => {
    const text = ['* Drip', '', '  * *Slow*: one litre an hour', '', '* Spray'].join('\n');
    expect(splitSentences(text).map((s) => [s.text, s.indent])).toEqual([
      ['Drip', undefined],
      ['Slow: one litre an hour', 2],
      ['Spray', undefined],
    ]);
  });

  it("reads a list-table row's first cell without its two bullets", () => {
    const text = ['* - Product name', '  - License', '* - Drip Valve', '  - MIT'].join('\n');
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Product name',
      'License',
      'Drip Valve',
      'MIT',
    ]);
  });

  it("does not quote a table's header row: its names label each row's cells", () => {
    const text = ['| Product name | License |', '| --- | --- |', '| Drip Valve | MIT |'].join('\n');
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Product name: Drip Valve · License: MIT',
    ]);
  });

  it('reads a short delimiter row ("|-|-|") as the rule, and keeps prose that opens with dashes', () => {
    // Before, the rule had to have three dashes: "|-|-|" was quoted as a row and the header with
    // it; and any line opening with three dashes ("--- see the note below") was dropped as a rule.
    const text = ['| Distro | EOL date |', '|-|-|', '| Humble | May 2027 |'].join('\n');
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Distro: Humble · EOL date: May 2027',
    ]);
    expect(
      splitSentences('--- see the note below for the details.').map((s) => s.text),
    ).toHaveLength(1);
  });

  it('quotes a table row with its column names, as a reader of the table sees it', () => {
    const text = [
      'Below is a list of distributions.',
      '',
      '| Distro | Release date | Logo | EOL date |',
      '| --- | --- | --- | --- |',
      '| Humble Hawksbill | May 23rd, 2022 |  | May 2027 |',
      '| `Iron` | May 23rd, 2023 | | November 2024 |',
      '',
      '| a | b |',
    ].join('\n');
    const rows = splitSentences(text).filter((s) => s.tableRow);
    expect(rows.map((s) => s.text)).toEqual([
      // An empty cell is left out with its column's name.
      'Distro: Humble Hawksbill · Release date: May 23rd, 2022 · EOL date: May 2027',
      'Distro: Iron · Release date: May 23rd, 2023 · EOL date: November 2024',
      // A table with no header row keeps its cells bare.
      'a | b',
    ]);
  });

  it('joins a list item with its indented continuation', () => {
    const text = [
      '* Spray valves water a whole bed at once, which',
      '  wastes water on windy days.',
      '* Drip valves do not.',
    ].join('\n');
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Spray valves water a whole bed at once, which wastes water on windy days.',
      'Drip valves do not.',
    ]);
  });

  it('leaves code and the line before a list as they are', () => {
    const text = ['Open the valve with', '', '```', 'valve open bed_1', '```'].join('\n');
    expect(splitSentences(text).map((s) => [s.text, s.code])).toEqual([
      ['Open the valve with', 'valve open bed_1'],
    ]);
  });
});
