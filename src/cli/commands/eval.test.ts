import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-eval-cli-'));
const set = (name: string, lines: object[]) => {
  writeFileSync(join(root, name), lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return join(root, name);
};

describe('cohort eval: a set or a --split it cannot use is refused before anything runs', () => {
  it('eval routing refuses an agent the assistant does not have, naming the line and the agents', async () => {
    // It was scored as a miss: a misspelt label lowered the accuracy without a word.
    const file = set('typo.jsonl', [
      { query: 'What is a ROS 2 topic?', agent: 'glossary' },
      { query: 'Which GPU for Isaac Sim?', agent: 'hardwre' },
    ]);
    const data = join(root, 'data-never-made');
    const { code, stderr } = await runCli(['eval', 'routing', file], { COHORT_DATA_DIR: data });
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:2: agent "hardwre" is not an agent of this assistant`);
    expect(stderr).toContain('The agents are: book, capstone, glossary, hardware, module_info');
    // Nothing changed: the store (and its data folder) was never opened.
    expect(existsSync(data)).toBe(false);
  });

  it.each([
    ['routing', 'set.jsonl'],
    ['skills', 'set.jsonl'],
    ['answers', 'set.jsonl'],
    ['retrieval', 'set.jsonl'],
  ])('eval %s refuses a --split other than tune or heldout', async (target, name) => {
    const { code, stderr } = await runCli(['eval', target, join(root, name), '--split', 'test']);
    expect(code).toBe(2);
    expect(stderr).toContain('--split must be one of "tune", "heldout", not "test".');
  });

  it.each(['answers', 'retrieval'])(
    'eval %s refuses --split, which it ignored, saying which evaluations take it',
    async (target) => {
      const { code, stderr } = await runCli(['eval', target, 'set.jsonl', '--split', 'heldout']);
      expect(code).toBe(2);
      expect(stderr).toContain(`--split applies to eval routing and eval skills: eval ${target} `);
    },
  );

  it('eval skills refuses a split no case has, as eval routing does, instead of scoring 0 of 0', async () => {
    const file = set('skills.jsonl', [{ task: 'Refactor the parser', skill: null, split: 'tune' }]);
    const { code, stderr } = await runCli(['eval', 'skills', file, '--split', 'heldout']);
    expect(code).toBe(2);
    expect(stderr).toContain('No skill case has split "heldout" (the file has: tune).');
  });
});
