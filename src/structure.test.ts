import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Rules of the layout (docs/architecture.md) that a reader relies on, checked on the source.
const SRC = fileURLToPath(new URL('./', import.meta.url));

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' && dir === SRC ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

const runtime = sources().map((path) => ({
  file: relative(SRC, path),
  text: readFileSync(path, 'utf8'),
}));

/** The files `npm run build` compiles into dist/ (which it empties first): tsconfig.build.json's. */
function builtFiles(): string[] {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const path = join(root, 'tsconfig.build.json');
  const { config } = ts.readConfigFile(path, (file) => ts.sys.readFile(file));
  return ts
    .parseJsonConfigFileContent(config, ts.sys, root, undefined, path)
    .fileNames.map((file) => relative(root, file));
}

describe('source layout', () => {
  it('builds no test double into dist/: no test file, fixture, src/test/ module or mock import', () => {
    const built = builtFiles();
    expect(built).toContain('src/index.ts');
    const doubles = built.filter(
      (file) =>
        file.startsWith('src/test/') ||
        /\.test\.ts$/.test(file) ||
        /(^|\/)fixtures?\//.test(file) ||
        /from '(?:vitest|ai\/test)'/.test(readFileSync(file, 'utf8')),
    );
    expect(doubles).toEqual([]);
  });

  it('ships no test double: no runtime module imports src/test/', () => {
    const offenders = runtime.filter(({ text }) => /from '(?:\.\.\/)+test\//.test(text));
    expect(offenders.map(({ file }) => file)).toEqual([]);
  });

  it('writes the [n] marker, the Sources footer and the report Sources heading only in src/citations/', () => {
    const patterns = [/\\\[\(\\d/, /\\\[\\d/, /\\\*\\\*Sources/, /(?<!#)## Sources/];
    const offenders = runtime.filter(
      ({ file, text }) =>
        !file.startsWith('citations/') && patterns.some((pattern) => pattern.test(text)),
    );
    expect(offenders.map(({ file }) => file)).toEqual([]);
  });

  it('keeps assistant/, research/ and subagents/ independent of each other', () => {
    const siblings = ['assistant', 'research', 'subagents'];
    const offenders = runtime.filter(({ file, text }) => {
      const own = file.split('/')[0] ?? '';
      if (!siblings.includes(own)) return false;
      return siblings.some(
        (other) => other !== own && new RegExp(`from '(?:\\.\\./)+${other}/`).test(text),
      );
    });
    expect(offenders.map(({ file }) => file)).toEqual([]);
  });
});

describe('library examples in the docs', () => {
  it("import from 'cohort', the package a reader installs, in each doc's Library section", () => {
    // research.md imported from './research/index.js' and coding-assistant.md from
    // './src/coding/index.js': paths inside cohort's source that a reader's project has not.
    const docs = fileURLToPath(new URL('../docs/', import.meta.url));
    const wrong = readdirSync(docs)
      .filter((name) => name.endsWith('.md'))
      .flatMap((name) => {
        const text = readFileSync(join(docs, name), 'utf8');
        const library = text.split(/^## /m).find((section) => section.startsWith('Library\n'));
        const imports = library?.match(/from '[^']+'/g) ?? [];
        return imports.filter((from) => from !== "from 'cohort'").map((from) => `${name}: ${from}`);
      });
    expect(wrong).toEqual([]);
  });
});
