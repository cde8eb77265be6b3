import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseFrontmatter } from './frontmatter.js';

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

  it('still refuses YAML that is not valid, naming the file', () => {
    expect(() => parseFrontmatter('---\ntitle: [unclosed\n---\n', 'a.md')).toThrow(
      /a\.md: invalid YAML frontmatter/,
    );
  });
});
