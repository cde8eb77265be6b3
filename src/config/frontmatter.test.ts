import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_FRONTMATTER_CHARS, parseFrontmatter } from './frontmatter.js';

describe('parseFrontmatter', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads a YAML tag it does not know as its value, without a process warning on stderr', () => {
    // `cohort ingest` of a page with `title: !foo Bar` printed Node's "YAMLWarning: Unresolved
    // tag … (Use `node --trace-warnings ...`)" between its own lines.
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { data, body } = parseFrontmatter('---\ntitle: !foo Bar\n---\n# Bar\n', 'a.md');
    expect(data).toEqual({ title: 'Bar' });
    expect(body).toBe('# Bar\n');
    expect(emitWarning).not.toHaveBeenCalled();
  });

  it('refuses a frontmatter longer than MAX_FRONTMATTER_CHARS before parsing it', () => {
    // The YAML parser holds ~2.5 KB per line while it reads: a 7 MB document (under ingestion's
    // 8 MB per file) whose frontmatter was 1.4 million short lines took 44 s and 3.6 GB.
    const lines = Array.from({ length: 20_000 }, (_, i) => `key${i}: value`).join('\n');
    const text = `---\n${lines}\n---\n# Title\n`;
    expect(() => parseFrontmatter(text, 'big.md')).toThrow(
      `big.md: the frontmatter is ${Math.round(lines.length / 1024)} KB, over the ${MAX_FRONTMATTER_CHARS / 1024} KB a frontmatter may hold`,
    );
    const fits = Array.from({ length: 100 }, (_, i) => `key${i}: value`).join('\n');
    expect(parseFrontmatter(`---\n${fits}\n---\nbody`).data.key99).toBe('value');
  });

  it('says a frontmatter nested too deeply is so, not that the stack overflowed', () => {
    const deep = `---\na: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n---\n`;
    expect(() => parseFrontmatter(deep, 'deep.md')).toThrow(
      'deep.md: invalid YAML frontmatter (nested too deeply: a frontmatter holds a few flat settings)',
    );
  });

  it("names the file's line and column of YAML that is not valid, not the frontmatter's", () => {
    // The parser counts from the frontmatter's first line: "at line 2, column 6:" was the third
    // line of the file, past the opening `---`.
    const text = '---\nname: rev4\nfoo: : :\n  bar\n---\nbody\n';
    expect(() => parseFrontmatter(text, 'agents/rev4.md')).toThrow(
      /^agents\/rev4\.md:3:6: invalid YAML frontmatter \(Nested mappings are not allowed in compact mappings\)$/,
    );
    // A byte-order mark is no line.
    expect(() => parseFrontmatter(`\uFEFF${text}`, 'agents/rev4.md')).toThrow(/rev4\.md:3:6: /);
  });

  it('still refuses YAML that is not valid, naming the file', () => {
    expect(() => parseFrontmatter('---\ntitle: [unclosed\n---\n', 'a.md')).toThrow(
      /a\.md:2:\d+: invalid YAML frontmatter/,
    );
  });
});
