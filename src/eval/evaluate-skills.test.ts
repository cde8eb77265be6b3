import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSkills } from '../skills/index.js';
import { evaluateSkills, formatSkillReport, loadSkillCases } from './evaluate-skills.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-eval-skills-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
// The project's own skills (skills/ at the repository root).
const skills = loadSkills({ workspace: process.cwd(), home: base }).skills;

describe('cohort eval skills', () => {
  it('"implement a function that parses dates" activates developer', () => {
    const report = evaluateSkills(skills, [
      { task: 'implement a function that parses dates', skill: 'developer' },
    ]);
    expect(report.accuracy).toBe(1);
  });

  it('measures accuracy per split and prints a confusion table', () => {
    const file = join(base, 'set.jsonl');
    writeFileSync(
      file,
      [
        { task: 'Refactor the parser to remove duplication', skill: 'refactor', split: 'tune' },
        { task: 'hi there', skill: null, split: 'heldout' },
        { task: 'Fix the crash in the login form', skill: 'refactor', split: 'heldout' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const report = evaluateSkills(skills, loadSkillCases(file));
    expect(report).toMatchObject({ cases: 3, correct: 2 });
    expect(report.splits).toEqual({
      tune: { cases: 1, correct: 1, accuracy: 1 },
      heldout: { cases: 2, correct: 1, accuracy: 0.5 },
    });
    expect(report.confusion).toEqual({
      refactor: { refactor: 1, developer: 1 },
      '(none)': { '(none)': 1 },
    });
    const text = formatSkillReport(report);
    expect(text).toContain('accuracy: 0.667 (2/3)');
    expect(text).toMatch(/\nrefactor\s+1\s+1\s+0\n/);
    expect(text).toContain('[heldout] refactor → developer: Fix the crash in the login form');
  });

  it('refuses a set labelling a skill the workspace does not have, instead of scoring a miss', () => {
    const evaluate = () =>
      evaluateSkills(skills, [
        { task: 'Refactor the parser', skill: 'refactr' },
        { task: 'hi there', skill: null },
      ]);
    expect(evaluate).toThrow(/labels a skill this workspace does not have: "refactr"/);
    expect(evaluate).toThrow(/Its skills are: .*refactor/);
  });

  it('names the line of a bad case', () => {
    const file = join(base, 'bad.jsonl');
    writeFileSync(file, '{"task": "ok", "skill": null}\n{"task": "", "skill": "x"}\n');
    expect(() => loadSkillCases(file)).toThrow(/bad.jsonl:2: task must not be empty/);
  });

  it('names a set that is a folder or never ends, instead of failing unexpectedly', () => {
    // Found by an outside tester: 'cohort eval skills /tmp' said 'unexpected error: EISDIR'
    // (exit 1), and /dev/zero was read without end.
    expect(() => loadSkillCases(base)).toThrow(
      `${base}: this skill set is a folder, not a file: name the JSONL file in it.`,
    );
    expect(() => loadSkillCases('/dev/zero')).toThrow(
      '/dev/zero: this skill set holds more than 64 MB (or never ends)',
    );
  });
});
