import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseFrontmatter } from './frontmatter.js';
import { createYamlCache, YAML_CACHE_FILE } from './yaml-cache.js';

const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-yaml-cache-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The YAML parser, counting its calls. */
const counting = () => {
  const calls: string[] = [];
  return { calls, parse: (text: string) => (calls.push(text), parse(text) as unknown) };
};

/** After the cache's write, which waits for the synchronous run that parsed to end. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

const AGENT = 'name: glossary\nkeywords: [topic, node]\nexamples:\n  - What is a node?\n';

describe('the parsed-YAML cache', () => {
  it('gives a later process the value without parsing, and a changed text is parsed', async () => {
    const dir = folder();
    const first = counting();
    const value = createYamlCache(dir).parse(AGENT, first.parse);
    expect(first.calls).toHaveLength(1);
    await settled();
    // A new cache over the same folder stands for the next process.
    const later = counting();
    const cache = createYamlCache(dir);
    expect(cache.parse(AGENT, later.parse)).toEqual(value);
    expect(later.calls).toEqual([]);
    expect(cache.parse(AGENT.replace('glossary', 'hardware'), later.parse)).toMatchObject({
      name: 'hardware',
    });
    expect(later.calls).toHaveLength(1);
  });

  it('hands out copies: a caller that changes its value changes no later one', () => {
    const cache = createYamlCache(folder());
    const value = cache.parse(AGENT, parse) as { keywords: string[] };
    value.keywords.push('changed');
    expect(cache.parse(AGENT, parse)).toMatchObject({ keywords: ['topic', 'node'] });
  });

  it('keeps no value JSON would change (.inf, .nan) and no failed parse', async () => {
    const dir = folder();
    const cache = createYamlCache(dir);
    expect(cache.parse('limit: .inf\n', parse)).toEqual({ limit: Infinity });
    expect(() => cache.parse('a: [unclosed\n', parse)).toThrow();
    await settled();
    const later = counting();
    expect(createYamlCache(dir).parse('limit: .inf\n', later.parse)).toEqual({ limit: Infinity });
    expect(later.calls).toHaveLength(1);
  });

  it('passes over a damaged cache file, and one it cannot write, parsing as before', async () => {
    const dir = folder();
    writeFileSync(join(dir, YAML_CACHE_FILE), '{"format":1,"entries":');
    expect(createYamlCache(dir).parse(AGENT, parse)).toMatchObject({ name: 'glossary' });
    await settled();
    // Rewritten whole: the next process reads it.
    expect(JSON.parse(readFileSync(join(dir, YAML_CACHE_FILE), 'utf8'))).toMatchObject({
      format: 1,
    });
    const blocked = join(folder(), 'not-a-folder');
    writeFileSync(blocked, '');
    expect(createYamlCache(blocked).parse(AGENT, parse)).toMatchObject({ name: 'glossary' });
    await settled();
    const readOnly = folder();
    chmodSync(readOnly, 0o500);
    try {
      expect(createYamlCache(readOnly).parse(AGENT, parse)).toMatchObject({ name: 'glossary' });
      await settled();
    } finally {
      chmodSync(readOnly, 0o700);
    }
  });

  it('passes over a cache that is a named pipe or over 1 MB, without waiting or reading it', () => {
    const piped = folder();
    execFileSync('mkfifo', [join(piped, YAML_CACHE_FILE)]);
    // Before: readFileSync waited for a writer for ever.
    expect(createYamlCache(piped).parse(AGENT, parse)).toMatchObject({ name: 'glossary' });
    const huge = folder();
    writeFileSync(
      join(huge, YAML_CACHE_FILE),
      JSON.stringify({ format: 1, entries: { pad: 'x'.repeat(2 * 1024 * 1024) } }),
    );
    const calls = counting();
    expect(createYamlCache(huge).parse(AGENT, calls.parse)).toMatchObject({ name: 'glossary' });
    expect(calls.calls).toHaveLength(1);
  });

  it('writes the entries one synchronous run adds once, after it', async () => {
    const dir = folder();
    const cache = createYamlCache(dir);
    for (let i = 0; i < 5; i++) cache.parse(`name: agent-${i}\n`, parse);
    // Not yet: a registry parsing many agent files wrote the file once per file.
    expect(() => readFileSync(join(dir, YAML_CACHE_FILE))).toThrow();
    await settled();
    const saved = JSON.parse(readFileSync(join(dir, YAML_CACHE_FILE), 'utf8')) as {
      entries: Record<string, unknown>;
    };
    expect(Object.keys(saved.entries)).toHaveLength(5);
  });

  it('is checked as a fresh parse is: frontmatter rules still apply to a cached value', () => {
    const dir = folder();
    const cache = createYamlCache(dir);
    const text = '---\nname: "a\\0b"\n---\nbody';
    const refuse = () => parseFrontmatter(text, 'agents/a.md', { yamlCache: cache });
    expect(refuse).toThrow(/agents\/a\.md: frontmatter .*name/);
    // Kept after the first parse (it is valid YAML), refused again from the cache.
    expect(refuse).toThrow(/agents\/a\.md: frontmatter .*name/);
  });
});
