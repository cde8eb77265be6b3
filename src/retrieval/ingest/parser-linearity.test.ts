import { describe, expect, it } from 'vitest';
import { MAX_SECTION_CHARS, prepareDocument } from './ingest.js';

// Inputs that made the old regular expressions backtrack quadratically (a line of 80,000 spaces
// took 6.7 s). Each is 200,000 characters: a linear parser takes milliseconds, a quadratic one
// minutes, so the generous bound below separates them without measuring anything finely.
const SIZE = 200_000;
const HOSTILE: Record<string, string> = {
  'trailing-blank run': ' '.repeat(SIZE) + 'x',
  'heading then blanks': '# a' + ' '.repeat(SIZE) + 'x',
  'nested list': Array.from({ length: 2000 }, (_, i) => '  '.repeat(i % 400) + '- item').join('\n'),
  'many image openers': '!['.repeat(SIZE / 2),
  'many link openers': '['.repeat(SIZE),
  'link closers without a target': '[a]('.repeat(SIZE / 4),
  'MDX comments then text': '{/**/}'.repeat(SIZE / 6) + 'x',
  'heading anchors': '# h ' + '{#'.repeat(SIZE / 2),
  'rst roles': ':a:`'.repeat(SIZE / 4),
  'rst targets': '`a <'.repeat(SIZE / 4) + '`_',
  'rst substitutions': 'a'.repeat(SIZE) + '|',
};

describe('parsers stay linear on hostile input', () => {
  for (const [name, text] of Object.entries(HOSTILE)) {
    it(`parses ${name} (${text.length} characters) quickly as Markdown and reStructuredText`, () => {
      for (const file of ['hostile.md', 'hostile.rst']) {
        const started = performance.now();
        prepareDocument(file, text);
        expect(performance.now() - started, file).toBeLessThan(3000);
      }
    });
  }

  it('cuts a section over the size cap and says so, keeping the rest', () => {
    const huge = `# Huge\n\n${'word '.repeat(MAX_SECTION_CHARS / 4)}\n\n# Small\n\nA small section.`;
    const { chunks, truncated } = prepareDocument('huge.md', huge);
    expect(truncated).toHaveLength(1);
    expect(truncated[0]).toMatch(
      /section "Huge" \(line 1\) has \d+ characters; the first 500000 were kept/,
    );
    expect(chunks.map((chunk) => chunk.text).join('').length).toBeLessThan(MAX_SECTION_CHARS + 100);
    expect(chunks.at(-1)?.headingPath).toEqual(['Small']);
  });
});
