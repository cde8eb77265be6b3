import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NOT_UTF8_NAME } from '../config/index.js';
import { namedPipe } from '../test/named-pipe.js';
import { loadSubagentTypes } from './subagent-file.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-subagent-files-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('loadSubagentTypes on hostile folders', () => {
  it('reports a subagent file that is a named pipe instead of blocking on it', () => {
    // A FIFO in .claude/agents/ made `cohort skills` and `cohort code` wait for a writer for ever.
    const workspace = join(base, 'ws');
    const dir = join(workspace, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'fine.md'), '---\nname: fine\ndescription: Still loads.\n---\nBody.\n');
    const stop = namedPipe(join(dir, 'piped.md'), '---\nname: piped\ndescription: x\n---\nBody.');
    try {
      const catalog = loadSubagentTypes(workspace, { home: join(base, 'home') });
      expect(catalog.types.has('fine')).toBe(true);
      expect(catalog.types.has('piped')).toBe(false);
      expect(catalog.problems).toEqual([
        {
          file: join(dir, 'piped.md'),
          reason:
            'this subagent file is a named pipe (FIFO), not a file: replace it with a file or remove it.',
        },
      ]);
    } finally {
      stop();
    }
  });

  it('names a subagent file whose name is not UTF-8, instead of saying it cannot be found', () => {
    // A Latin-1 'café.md' was reported as "Cannot read the subagent file …/caf\uFFFD.md (ENOENT)".
    const workspace = join(base, 'ws-latin1');
    const dir = join(workspace, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      Buffer.from([...Buffer.from(join(dir, 'caf')), 0xe9, ...Buffer.from('.md')]),
      '---\nname: cafe\ndescription: x\n---\nBody.\n',
    );
    const catalog = loadSubagentTypes(workspace, { home: join(base, 'home') });
    expect(catalog.types.has('cafe')).toBe(false);
    expect(catalog.problems).toEqual([{ file: join(dir, 'caf\\xE9.md'), reason: NOT_UTF8_NAME }]);
  });

  it("words a refused field in cohort's terms: what it was given and what it takes", () => {
    // `maxTurns: many` said "maxTurns: Invalid input: expected number, received string".
    const workspace = join(base, 'ws-words');
    const dir = join(workspace, '.cohort', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'yaml.md'), '---\nname: yaml\nfoo: : :\n  bar\n---\nB\n');
    writeFileSync(
      join(dir, 'turns.md'),
      '---\nname: turns\ndescription: d\nmaxTurns: many\n---\nB\n',
    );
    const catalog = loadSubagentTypes(workspace, { home: join(base, 'home') });
    expect(catalog.problems).toEqual([
      expect.objectContaining({
        file: join(dir, 'turns.md'),
        reason: 'maxTurns must be a number, not "many"',
      }),
      // The YAML parser's place, in the file's lines (past the opening `---`).
      expect.objectContaining({
        file: join(dir, 'yaml.md'),
        reason:
          'line 3, column 6: invalid YAML frontmatter (Nested mappings are not allowed in compact mappings)',
      }),
    ]);
  });

  it("refuses a description longer than a skill's, which every model call would carry", () => {
    // The descriptions are listed in the task tool's own description, sent with each request.
    const workspace = join(base, 'ws-long');
    const dir = join(workspace, '.cohort', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'long.md'),
      `---\nname: long\ndescription: ${'x'.repeat(5_000)}\n---\nB\n`,
    );
    const catalog = loadSubagentTypes(workspace, { home: join(base, 'home') });
    expect(catalog.types.has('long')).toBe(false);
    expect(catalog.problems).toEqual([
      expect.objectContaining({
        file: join(dir, 'long.md'),
        reason: expect.stringContaining('at most 1024 characters'),
      }),
    ]);
  });
});
