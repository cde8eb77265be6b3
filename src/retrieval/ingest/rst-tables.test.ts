import { describe, expect, it } from 'vitest';
import { parseRst } from './rst-parser.js';
import { gridTable, gridTableEnd, simpleTable, simpleTableEnd } from './rst-tables.js';

describe('gridTable', () => {
  const lines = [
    '+----------+-------------+---------------+',
    '| Location | Target      | Sensitivity   |',
    '+==========+=============+===============+',
    '| public   | yes         | Low           |',
    '+----------+-------------+---------------+',
    '| -u       | The update  | 1ms           |',
    '|          | period.     |               |',
    '+----------+-------------+---------------+',
  ];

  it('reads its columns from the top border, a row from the lines between borders', () => {
    expect(gridTable(lines)).toEqual({
      rows: [
        ['Location', 'Target', 'Sensitivity'],
        ['public', 'yes', 'Low'],
        ['-u', 'The update period.', '1ms'],
      ],
      headerRows: 1,
    });
  });

  it('has no header row without a "+===+" border', () => {
    expect(gridTable(['+---+---+', '| a | b |', '+---+---+']).headerRows).toBe(0);
  });

  it('ends at the first line that is no border or row', () => {
    expect(gridTableEnd([...lines, '', 'After.'], 0)).toBe(lines.length);
  });
});

describe('simpleTable', () => {
  const lines = [
    '===============    ===================',
    'data_type value     statistics',
    '===============    ===================',
    '1                   average',
    '4                   standard',
    '                    deviation',
    '===============    ===================',
  ];

  it('reads columns from the border, a line with a blank first column as the row above', () => {
    expect(simpleTable(lines)).toEqual({
      rows: [
        ['data_type value', 'statistics'],
        ['1', 'average'],
        ['4', 'standard deviation'],
      ],
      headerRows: 1,
    });
  });

  it('has no header row with only a top and a bottom border', () => {
    expect(simpleTable(['===  ===', 'a    b', '===  ===']).headerRows).toBe(0);
  });

  it('ends at the border followed by a blank line', () => {
    expect(simpleTableEnd([...lines, '', 'After.'], 0)).toBe(lines.length);
  });
});

describe('parseRst: drawn tables', () => {
  it('writes grid and simple tables as Markdown tables, header above a rule', () => {
    const doc = parseRst(
      [
        'Keystore',
        '========',
        '',
        'The table:',
        '',
        '+---------+--------+',
        '| Folder  | Device |',
        '+=========+========+',
        '| private | no     |',
        '+---------+--------+',
        '',
        '=====  ==========',
        'Value  Means',
        '=====  ==========',
        '1      average',
        '=====  ==========',
        '',
        'After.',
      ].join('\n'),
    );
    expect(doc.sections[0]?.text).toBe(
      [
        'The table:',
        '',
        '| Folder | Device |',
        '| --- | --- |',
        '| private | no |',
        '',
        '| Value | Means |',
        '| --- | --- |',
        '| 1 | average |',
        '',
        'After.',
      ].join('\n'),
    );
  });
});

describe('parseRst: a simple table with no closing border', () => {
  it('is read as prose, not as a table running to the end of the file', () => {
    // Found by review: with no border followed by a blank line, simpleTableEnd returned the end
    // of the file, so every later line (section titles included) became rows of one table.
    const doc = parseRst(
      [
        'First',
        '=====',
        '',
        '=====  ======',
        'Value  Means',
        '',
        'Second',
        '======',
        '',
        'Later prose.',
      ].join('\n'),
    );
    expect(doc.sections.map((section) => section.headingPath.at(-1))).toEqual(['First', 'Second']);
    expect(doc.sections[1]?.text).toBe('Later prose.');
  });
});

describe('gridTable: spanned cells', () => {
  it('keeps a cell spanning columns whole, and a rule under part of a row out of its cells', () => {
    // Found by review: the columns were cut at the top border's `+` whatever the row drew, so a
    // cell spanning two columns was cut mid-word ("Works on" | "all platforms" from one cell),
    // and a rule drawn under one cell of a row spanning rows ("|  +-----+") was read as text.
    expect(
      gridTable([
        '+-----------+-----------+',
        '| Name      | Support   |',
        '+===========+===========+',
        '| Works on all platforms|',
        '+-----------+-----------+',
        '| Fast DDS  | full      |',
        '|           +-----------+',
        '|           | tier 1    |',
        '+-----------+-----------+',
      ]),
    ).toEqual({
      rows: [
        ['Name', 'Support'],
        ['Works on all platforms', ''],
        ['Fast DDS', 'full tier 1'],
      ],
      headerRows: 1,
    });
  });
});
