import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCohortError } from '../../errors/index.js';
import { parseMarkdown } from './markdown-parser.js';

const guide = readFileSync(new URL('./fixtures/book/guide.mdx', import.meta.url), 'utf8');

describe('parseMarkdown', () => {
  const doc = parseMarkdown(guide, 'guide.mdx');

  it('takes the title from frontmatter before the first heading', () => {
    expect(doc.title).toBe('Robot Guide');
    expect(parseMarkdown('---\nsidebar_label: Side\n---\n# H\n').title).toBe('Side');
    expect(parseMarkdown('# Only Heading\ntext').title).toBe('Only Heading');
    expect(parseMarkdown('no headings', undefined, 'fallback').title).toBe('fallback');
  });

  it('builds heading paths from # to ####', () => {
    const paths = doc.sections.map((s) => s.headingPath.join(' > '));
    expect(paths).toEqual([
      'Robot Guide Heading',
      'Robot Guide Heading > What is a Servo?',
      'Robot Guide Heading > Wiring',
      'Robot Guide Heading > Wiring > Power',
      'Robot Guide Heading > Wiring > Power > Tiny',
      'Robot Guide Heading > Capstone Project',
    ]);
  });

  it('drops MDX imports, exports and tag-only lines but keeps code and tables', () => {
    const all = doc.sections.map((s) => s.text).join('\n');
    expect(all).not.toContain('import Tabs');
    expect(all).not.toContain('export const');
    expect(all).not.toContain('<Tabs>');
    expect(all).toContain('A servo is a motor');
    expect(all).toContain('# not a heading inside code');
    expect(all).toContain('| 1   | power |');
  });

  it('records the line of each heading in the original file', () => {
    const wiring = doc.sections.find((s) => s.headingPath.at(-1) === 'Wiring');
    expect(guide.split('\n')[(wiring?.line ?? 0) - 1]).toBe('## Wiring');
  });

  it('uses the title as the top of the path when there is no # heading', () => {
    const parsed = parseMarkdown('---\ntitle: T\n---\nlead\n\n## Part\n\nbody');
    expect(parsed.sections.map((s) => s.headingPath)).toEqual([['T'], ['T', 'Part']]);
  });

  it('reports malformed frontmatter naming the file', () => {
    try {
      parseMarkdown('---\ntitle: [unclosed\n---\n# x', 'bad.md');
      expect.unreachable();
    } catch (error) {
      expect(isCohortError(error, 'invalid_input')).toBe(true);
      expect(String(error)).toContain('bad.md');
    }
  });
});

describe('a MyST list-table', () => {
  it('is read as a table, as a reStructuredText one is', () => {
    const page = [
      '# Valves',
      '',
      '```{list-table} Supported valves',
      ':header-rows: 1',
      '',
      '* - Product name',
      '  - Status',
      '* - Drip valve',
      '  - Full support',
      '```',
    ].join('\n');
    expect(parseMarkdown(page).sections[0]?.text.split('\n')).toEqual([
      'Supported valves',
      '',
      '| Product name | Status |',
      '| --- | --- |',
      '| Drip valve | Full support |',
    ]);
  });
});
