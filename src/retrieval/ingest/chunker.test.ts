import { describe, expect, it } from 'vitest';
import { chunkDocument, MAX_CHUNK_CHARS, MIN_LAST_PIECE_CHARS, splitText } from './chunker.js';
import { parseMarkdown } from './markdown-parser.js';

const para = (n: number, word: string) => Array.from({ length: n }, () => word).join(' ');

describe('chunkDocument', () => {
  it('makes a chunk per section and folds tiny ones into a neighbour', () => {
    const doc = parseMarkdown(
      `# T\n\n## Parent\n\nShort lead.\n\n### Child\n\n${para(30, 'child')}\n\n#### Leaf\n\nTiny.\n\n## Empty\n\n## Other\n\n${para(30, 'other')}`,
    );
    const chunks = chunkDocument(doc, 'a.md');
    expect(chunks.map((c) => c.headingPath.join('/'))).toEqual(['T/Parent/Child', 'T/Other']);
    expect(chunks[0]?.text.startsWith('Parent: Short lead.')).toBe(true);
    expect(chunks[0]?.text).toContain('Leaf: Tiny.');
    expect(chunks.map((c) => c.ord)).toEqual([0, 1]);
  });

  it('splits long sections on paragraph boundaries, keeping the heading path', () => {
    const body = Array.from({ length: 8 }, (_, i) => para(100, `p${i}`)).join('\n\n');
    const chunks = chunkDocument(parseMarkdown(`# T\n\n## Long\n\n${body}`), 'a.md');
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
      expect(chunk.headingPath).toEqual(['T', 'Long']);
      expect(chunk.text.startsWith('p')).toBe(true);
    }
    expect(chunks[0]?.metadata).toMatchObject({ part: 1, parts: chunks.length });
  });

  it('derives ids from content, stable across runs and unique within a file', () => {
    const text = `# T\n\n## A\n\n${para(30, 'same')}\n\n## A\n\n${para(30, 'same')}`;
    const first = chunkDocument(parseMarkdown(text), 'a.md');
    const again = chunkDocument(parseMarkdown(text), 'a.md');
    expect(first.map((c) => c.id)).toEqual(again.map((c) => c.id));
    expect(new Set(first.map((c) => c.id)).size).toBe(2);
    expect(chunkDocument(parseMarkdown(text), 'b.md')[0]?.id).not.toBe(first[0]?.id);
  });

  it('cuts a single over-long line', () => {
    expect(splitText('x'.repeat(3000), 1000)).toHaveLength(3);
  });
});

describe('splitText leaves no lone closing line', () => {
  it('moves paragraphs from the piece before into a short last piece', () => {
    // Filled greedily, the steps fill the first piece and the closing line stands alone.
    const steps = Array.from(
      { length: 4 },
      (_, i) => `Step ${i}: ${'open the valve '.repeat(19).trim()}`,
    );
    const closing = 'You will then find the water in the tank.';
    const pieces = splitText([...steps, closing].join('\n\n'), 1200);
    expect(pieces).toHaveLength(2);
    expect(pieces[1]?.length).toBeGreaterThanOrEqual(MIN_LAST_PIECE_CHARS);
    expect(pieces[1]?.endsWith(closing)).toBe(true);
    expect(pieces.every((piece) => piece.length <= 1200)).toBe(true);
    expect(pieces.join('\n\n')).toBe([...steps, closing].join('\n\n'));
  });

  it('keeps a short last piece when no paragraph fits beside it', () => {
    const long = 'p'.repeat(1195);
    const pieces = splitText(`${long}\n\n${long}\n\nThe end.`, 1200);
    expect(pieces).toEqual([long, long, 'The end.']);
  });
});

describe('splitText keeps a nested item nested', () => {
  it('keeps the indent of the line a piece starts with', () => {
    const items = Array.from(
      { length: 30 },
      (_, i) => `* Policy ${i}\n  * detail ${i} ${'x'.repeat(30)}`,
    );
    const pieces = splitText(items.join('\n'), 300);
    expect(pieces.length).toBeGreaterThan(1);
    // A piece cut after "* Policy n" starts with its nested "  * detail n".
    expect(pieces.slice(1).some((piece) => piece.startsWith('  * detail'))).toBe(true);
    expect(pieces.every((piece) => !piece.startsWith('\n'))).toBe(true);
  });
});

describe('splitText cuts a table with its header', () => {
  it('opens each piece a table goes on in with its header row and rule', () => {
    const rows = Array.from(
      { length: 20 },
      (_, i) => `| Distro ${i} | May 23rd, 20${10 + i} | May 20${15 + i} |`,
    );
    const table = ['| Distro | Release date | EOL date |', '| --- | --- | --- |', ...rows].join(
      '\n',
    );
    const pieces = splitText(`Below is a list of distributions.\n\n${table}`, 300);
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces.slice(1))
      expect(piece.split('\n').slice(0, 2)).toEqual([
        '| Distro | Release date | EOL date |',
        '| --- | --- | --- |',
      ]);
    // Every row is in exactly one piece.
    for (const row of rows) expect(pieces.filter((piece) => piece.includes(row))).toHaveLength(1);
  });
});

describe('splitText cuts a table with a short delimiter row', () => {
  it('repeats the header of a table whose rule is "|-|:-:|"', () => {
    // Before, only rules of three dashes or more were seen: this table's pieces had no header.
    const rows = Array.from({ length: 20 }, (_, i) => `| Distro ${i} | May 20${15 + i} |`);
    const table = ['| Distro | EOL date |', '|-|:-:|', ...rows].join('\n');
    const pieces = splitText(table, 200);
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces.slice(1))
      expect(piece.split('\n').slice(0, 2)).toEqual(['| Distro | EOL date |', '|-|:-:|']);
  });
});

describe('splitText with a table of long rows', () => {
  it('keeps each piece within the limit: the header goes on only where it fits', () => {
    // Found by review: the header was put before a piece's first row whatever their length, so a
    // piece ran past `max` by up to the header's length.
    const header = `| ${'Column name '.repeat(8)}| Other |`;
    const rows = Array.from({ length: 6 }, (_, i) => `| row ${i} ${'x'.repeat(200)} | y |`);
    const table = [header, '| --- | --- |', ...rows].join('\n');
    const pieces = splitText(table, 250);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(250);
    for (const row of rows) expect(pieces.filter((piece) => piece.includes(row))).toHaveLength(1);
  });
});
