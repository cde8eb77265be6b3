import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../../errors/index.js';
import { createScriptedModel, RECORDED } from '../../test/scripted-model.js';
import type { CliIo } from '../command.js';
import { CODING_NEEDS_MODEL } from '../../coding/index.js';
import { codeCommand, createCodeCommand } from './code.js';
import { skillsCommand } from './skills.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-cli-code-'));
const workspace = join(base, 'ws');
mkdirSync(join(workspace, 'skills', 'developer'), { recursive: true });
mkdirSync(join(workspace, 'skills', 'Broken'), { recursive: true });
mkdirSync(join(workspace, '.cohort', 'skills', 'developer'), { recursive: true });
writeFileSync(
  join(workspace, 'skills', 'developer', 'SKILL.md'),
  '---\nname: developer\ndescription: Implement features and fix bugs.\n---\nBuild it.\n',
);
writeFileSync(
  join(workspace, '.cohort', 'skills', 'developer', 'SKILL.md'),
  '---\nname: developer\ndescription: Older copy.\n---\nOld.\n',
);
writeFileSync(
  join(workspace, 'skills', 'Broken', 'SKILL.md'),
  '---\nname: Broken\ndescription: x\n---\nx\n',
);
writeFileSync(join(workspace, 'a.ts'), 'export const a = 1;\n');
afterAll(() => rmSync(base, { recursive: true, force: true }));

function io(env: Record<string, string | undefined> = {}, isTTY = false) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env: { HOME: join(base, 'home'), ...env },
    cwd: base,
    isTTY,
    control: (stream, sequence) => (stream === 'stdout' ? out : err).push(sequence),
  };
  return { io: value, out: () => out.join(''), err: () => err.join('') };
}
const code = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return isCohortError(error) ? error.code : 'other';
  }
  return 'ok';
};

describe('cohort skills', () => {
  it('lists skills with where they come from, the shadowed copy and malformed ones', async () => {
    const t = io();
    expect(await skillsCommand.run(['--workspace', workspace], t.io)).toBe(0);
    expect(t.out()).toContain('developer  Implement features and fix bugs.');
    expect(t.out()).toContain(
      `from project: ${join(workspace, 'skills', 'developer', 'SKILL.md')}`,
    );
    expect(t.out()).toContain(`is hidden by ${join(workspace, 'skills', 'developer', 'SKILL.md')}`);
    expect(t.out()).toMatch(/Broken\/SKILL\.md: name must be lowercase/);
    expect(t.out()).toContain('explorer [fast; glob, grep, read] from builtin');
  });
  it('refuses a missing workspace and unknown flags', async () => {
    expect(await code(() => skillsCommand.run(['--workspace', join(base, 'nope')], io().io))).toBe(
      'invalid_input',
    );
    expect(await code(() => skillsCommand.run(['--bogus'], io().io))).toBe('invalid_input');
  });
});

describe('cohort code', () => {
  it('says it needs a model and exits non-zero without one', async () => {
    const t = io();
    expect(await codeCommand.run(['fix it', '--workspace', workspace], t.io)).toBe(1);
    expect(t.err()).toContain(CODING_NEEDS_MODEL);
    expect(t.err()).toContain('cohort code needs a model: set OPENAI_API_KEY or OPENAI_BASE_URL');
  });
  it('refuses bad flags, a missing task and a missing workspace', async () => {
    expect(await code(() => codeCommand.run(['x', '--nope'], io().io))).toBe('invalid_input');
    expect(await code(() => codeCommand.run(['--workspace', workspace], io().io))).toBe(
      'invalid_input',
    );
    expect(
      await code(() =>
        codeCommand.run(
          ['x', '--workspace', join(base, 'missing')],
          io({ OPENAI_API_KEY: 'sk' }).io,
        ),
      ),
    ).toBe('invalid_input');
    expect(
      await code(() =>
        codeCommand.run(
          ['x', '--skill', 'chef', '--workspace', workspace],
          io({ OPENAI_API_KEY: 'sk' }).io,
        ),
      ),
    ).not.toBe('ok');
  });
  it('refuses a --session id POST /code refuses, naming the flag, before the model runs', async () => {
    // '../x', 'a b', '' and 200 characters were kept as sessions; the HTTP API takes 1-100
    // letters, digits, dots, dashes or underscores.
    let calls = 0;
    const command = createCodeCommand({
      model: () => createScriptedModel(() => ((calls += 1), { text: 'done' }), RECORDED),
    });
    for (const session of ['../x', 'a b', '', 'a'.repeat(101)]) {
      let message = '';
      try {
        await command.run(
          ['fix it', '--session', session, '--workspace', workspace],
          io({ OPENAI_API_KEY: 'sk', COHORT_DATA_DIR: 'memory://' }).io,
        );
      } catch (error) {
        message = isCohortError(error, 'invalid_input') ? error.message : String(error);
      }
      expect(message, session).toContain(
        session === ''
          ? '--session was given an empty value'
          : `--session must be 1-100 letters, digits, dots, dashes or underscores, not ${session.length > 60 ? `text of ${session.length} characters` : JSON.stringify(session)}`,
      );
    }
    expect(calls).toBe(0);
  });

  it('refuses an unknown --skill before the model runs, and activates a known one', async () => {
    // A typo used to be ignored: the run went on with every tool, past a skill's tool limits.
    let calls = 0;
    const main = createScriptedModel(() => {
      calls += 1;
      return { text: 'done' };
    }, RECORDED);
    const command = createCodeCommand({ model: () => main });
    const typo = io();
    let caught: unknown;
    await command
      .run(['x', '--skill', 'devloper', '--workspace', workspace], typo.io)
      .catch((error: unknown) => (caught = error));
    expect(caught).toMatchObject({ code: 'not_found', field: 'skill' });
    expect((caught as Error).message).toContain('Unknown skill "devloper"');
    expect(calls).toBe(0);
    const known = io();
    expect(
      await command.run(
        ['x', '--skill', 'developer', '--workspace', workspace, '--json'],
        known.io,
      ),
    ).toBe(0);
    expect(JSON.parse(known.out())).toMatchObject({ skill: 'developer' });
  });
  it('prints subagent lines, then the answer and the token split', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? { toolCalls: [{ toolName: 'task', input: { type: 'explorer', prompt: 'Find a.ts' } }] }
          : { text: 'a.ts exports a.' },
      RECORDED,
    );
    const explorer = createScriptedModel(
      () => ({
        text: '{"summary":"a.ts exports a","files":["a.ts"]}',
      }),
      RECORDED,
    );
    let now = 1000;
    const command = createCodeCommand({
      model: (ref) => (ref === 'fast' ? explorer : main),
      clock: () => (now += 500),
    });
    const t = io();
    expect(await command.run(['where is a', '--workspace', workspace], t.io)).toBe(0);
    const lines = t.out().split('\n');
    expect(lines[0]).toBe('→ explorer started: Find a.ts');
    expect(lines[1]).toMatch(
      /^✓ explorer \[fast\] completed · \d+\.\ds · 1 turn · 120 tokens · Find a.ts$/,
    );
    expect(t.out()).toContain('a.ts exports a.');
    expect(t.out()).toContain('240 tokens main + 120 in 1 subagent]');
  });
  it('exits 1 and says how to raise the step limit when the run stops at it', async () => {
    // Text on the way is not a final answer: the model was still calling tools at the cap.
    const main = createScriptedModel(
      () => ({ text: 'Looking.', toolCalls: [{ toolName: 'glob', input: { pattern: '*.ts' } }] }),
      RECORDED,
    );
    const command = createCodeCommand({ model: () => main });
    const t = io({ COHORT_MAX_STEPS: '2' });
    expect(await command.run(['where is a', '--workspace', workspace], t.io)).toBe(1);
    expect(t.out()).toContain('Looking.');
    expect(t.err()).toContain('Stopped after 2 model steps without a final answer');
    expect(t.err()).toContain('Raise model.maxSteps (COHORT_MAX_STEPS)');
  });
  it('redraws the tree in place on a terminal', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? { toolCalls: [{ toolName: 'task', input: { type: 'explorer', prompt: 'Look' } }] }
          : { text: 'done' },
      RECORDED,
    );
    const explorer = createScriptedModel(() => ({ text: 'nothing found' }), RECORDED);
    const command = createCodeCommand({
      model: (ref) => (ref === 'fast' ? explorer : main),
    });
    const t = io({}, true);
    expect(await command.run(['look', '--workspace', workspace], t.io)).toBe(0);
    expect(t.out()).toContain('\x1b[1A\x1b[0J'); // moved up over the previous tree
    expect(t.out()).toContain('└─ ✓ explorer');
  });
});
