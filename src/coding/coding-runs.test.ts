import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createScriptedModel } from '../test/scripted-model.js';
import { answerCodeRun, startCodeRun } from './coding-runs.js';
import { codingPermissionPolicy, readRefusedBy, writeRefusedBy } from './coding-permissions.js';
import { loadSkills } from '../skills/index.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-code-runs-'));
const workspace = join(base, 'ws');
const home = join(base, 'home');

let store: Store;
beforeAll(async () => {
  mkdirSync(workspace);
  mkdirSync(home);
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(async () => {
  await store.close();
  rmSync(base, { recursive: true, force: true });
});

describe('a file call holding text no file can carry', () => {
  it('is refused before it is asked about, so no approved call writes U+FFFD in its place', async () => {
    // Found by outside testing: a write with a NUL in its content paused for approval; the paused
    // call was stored with U+FFFD for the NUL (the database holds no NUL), and "yes" wrote that.
    const seen: string[] = [];
    const model = createScriptedModel((call, options) => {
      seen.push(JSON.stringify(options.prompt));
      return call === 0
        ? { toolCalls: [{ toolName: 'write', input: { path: 'a.bin', content: 'x\u0000y' } }] }
        : { text: 'Done.' };
    });
    const options = {
      workspace,
      home,
      config: loadConfig({ env: {}, cwd: base }),
      model: () => model,
    };
    const { runId, result } = await startCodeRun(store.runs, { ...options, request: 'Write it.' });
    if (result.pending) {
      await answerCodeRun(store.runs, runId, { '*': 'yes' }, options);
      expect(readFileSync(join(workspace, 'a.bin'), 'utf8')).toBe('x\uFFFDy');
    }
    expect(result.pending).toBeUndefined();
    expect(existsSync(join(workspace, 'a.bin'))).toBe(false);
    expect(seen.at(-1)).toContain('content holds a NUL character at position 2');
  });
});

/**
 * One coding run over `root` whose model makes `call` first, answered "yes" if it pauses for
 * approval: its first result and the prompt the model read last (what the call gave back).
 * `skill` runs it under that skill, `env` is the run's environment.
 */
async function runOneCall(
  root: string,
  permissions: object,
  call: { toolName: string; input: unknown },
  run: { skill?: string; env?: Record<string, string> } = {},
) {
  const outputs: string[] = [];
  const model = createScriptedModel((index, options) => {
    outputs.push(JSON.stringify(options.prompt));
    return index === 0 ? { toolCalls: [call] } : { text: 'Done.' };
  });
  const options = {
    workspace: root,
    home,
    config: loadConfig({ env: {}, cwd: base, overrides: { permissions } }),
    model: () => model,
    ...(run.env ? { env: run.env } : {}),
  };
  const { runId, result } = await startCodeRun(store.runs, {
    ...options,
    request: 'Do it.',
    ...(run.skill ? { skill: run.skill } : {}),
  });
  if (result.pending) await answerCodeRun(store.runs, runId, { '*': 'yes' }, options);
  return { result, said: outputs.at(-1) ?? '' };
}

describe('a file tool writing through a symlink', () => {
  it('is checked by the rules where it lands: a deny rule, an ask rule, the scope of an allow rule', async () => {
    // Found by outside testing: with Edit(secret/**) denied, `write link/x` wrote secret/x once
    // bash had made link -> secret; the rules only read the path the call named.
    const root = join(base, 'links');
    mkdirSync(join(root, 'secret'), { recursive: true });
    mkdirSync(join(root, 'docs'), { recursive: true });
    mkdirSync(join(root, 'src'), { recursive: true });
    symlinkSync('secret', join(root, 'link'));
    symlinkSync('../src', join(root, 'docs', 'code'));
    const attempt = (permissions: object, path: string) =>
      runOneCall(root, permissions, { toolName: 'write', input: { path, content: 'written' } });
    const denied = await attempt(
      { deny: ['Edit(secret/**)'], defaultMode: 'acceptEdits' },
      'link/x.txt',
    );
    expect(existsSync(join(root, 'secret', 'x.txt'))).toBe(false);
    expect(denied.said).toContain('leads to secret/x.txt through a symbolic link');
    const asked = await attempt(
      { ask: ['Edit(secret/**)'], defaultMode: 'acceptEdits' },
      'link/y.txt',
    );
    expect(asked.result.pending).toBeUndefined();
    expect(existsSync(join(root, 'secret', 'y.txt'))).toBe(false);
    expect(asked.said).toContain('write it by its own name, secret/y.txt');
    const scoped = await attempt(
      { allow: ['Edit(docs/**)'], defaultMode: 'dontAsk' },
      'docs/code/z.ts',
    );
    expect(existsSync(join(root, 'src', 'z.ts'))).toBe(false);
    // A write the rules let through by name and by where it lands still happens.
    await attempt({ allow: ['Edit(docs/**)'], defaultMode: 'dontAsk' }, 'docs/notes.md');
    expect(readFileSync(join(root, 'docs', 'notes.md'), 'utf8')).toBe('written');
    expect(scoped.said).toContain('Permission denied');
  });

  it('in the default mode, asks about where it lands when a rule asks about that file', async () => {
    // Found by review: with Ask(Edit(secret/**)) and every write asked about, the person approved
    // `link/w.txt` as named, without being told it landed in secret/, and the write went ahead.
    const root = join(base, 'links-default');
    mkdirSync(join(root, 'secret'), { recursive: true });
    mkdirSync(join(root, 'notes'), { recursive: true });
    symlinkSync('secret', join(root, 'link'));
    symlinkSync('notes', join(root, 'plain'));
    const attempt = async (path: string) =>
      (
        await runOneCall(
          root,
          { ask: ['Edit(secret/**)'], defaultMode: 'default' },
          { toolName: 'write', input: { path, content: 'written' } },
        )
      ).said;
    const said = await attempt('link/w.txt');
    expect(existsSync(join(root, 'secret', 'w.txt'))).toBe(false);
    expect(said).toContain('write it by its own name, secret/w.txt');
    // A link to a file no rule singles out is written once the name is approved, as before.
    await attempt('plain/v.txt');
    expect(readFileSync(join(root, 'notes', 'v.txt'), 'utf8')).toBe('written');
  });

  it('reading through a symlink asks as the file it reaches would: no read past an ask rule', async () => {
    // Found by review: with Ask(Read(secret/**)), `read link/s.txt` (link -> secret) read the file
    // without asking; only deny rules were checked on the file opened.
    const root = join(base, 'links-read');
    mkdirSync(join(root, 'secret'), { recursive: true });
    mkdirSync(join(root, 'notes'), { recursive: true });
    writeFileSync(join(root, 'secret', 's.txt'), 'SECRET-TOKEN');
    writeFileSync(join(root, 'notes', 'n.txt'), 'plain note');
    symlinkSync('secret', join(root, 'link'));
    symlinkSync('notes', join(root, 'plain'));
    const attempt = async (path: string) =>
      (
        await runOneCall(
          root,
          { ask: ['Read(secret/**)'], defaultMode: 'acceptEdits' },
          { toolName: 'read', input: { path } },
        )
      ).said;
    const said = await attempt('link/s.txt');
    expect(said).not.toContain('SECRET-TOKEN');
    expect(said).toContain('read it by its own name, secret/s.txt');
    expect(await attempt('plain/n.txt')).toContain('plain note');
  });
});

describe("an active skill's allowed-tools scope", () => {
  /** A workspace whose own skill `docs-only` may read and edit docs/ only, with a link docs/code -> ../src. */
  function scopedWorkspace(name: string) {
    const root = join(base, name);
    mkdirSync(join(root, 'skills', 'docs-only'), { recursive: true });
    writeFileSync(
      join(root, 'skills', 'docs-only', 'SKILL.md'),
      '---\nname: docs-only\ndescription: Edit the documentation only.\nallowed-tools: Read(docs/**) Grep(docs/**) Write(docs/**)\n---\nWork on docs/ only.\n',
    );
    mkdirSync(join(root, 'docs'), { recursive: true });
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'src', 'secret.ts'), 'export const token = "SRC-ONLY-TOKEN";\n');
    writeFileSync(join(root, 'docs', 'guide.md'), 'the guide\n');
    symlinkSync('../src', join(root, 'docs', 'code'));
    return root;
  }

  const runWithSkill = async (root: string, call: { toolName: string; input: unknown }) =>
    (
      await runOneCall(root, { defaultMode: 'acceptEdits' }, call, {
        skill: 'docs-only',
        env: { COHORT_TRUST_PROJECT_CONFIG: '1' },
      })
    ).said;

  it('is checked where a symlink leads: docs/code -> src is outside Read(docs/**) Grep(docs/**) Write(docs/**)', async () => {
    // Found by outside testing: the skill's rules were matched against the path the call named
    // only, so `read docs/code/secret.ts` read src/secret.ts and `write docs/code/x.ts` wrote src/x.ts.
    const root = scopedWorkspace('skill-scope-links');
    const read = await runWithSkill(root, {
      toolName: 'read',
      input: { path: 'docs/code/secret.ts' },
    });
    expect(read).not.toContain('SRC-ONLY-TOKEN');
    expect(read).toContain('src/secret.ts');
    const written = await runWithSkill(root, {
      toolName: 'write',
      input: { path: 'docs/code/x.ts', content: 'written' },
    });
    expect(existsSync(join(root, 'src', 'x.ts'))).toBe(false);
    expect(written).toContain('src/x.ts');
    const grep = await runWithSkill(root, {
      toolName: 'grep',
      input: { pattern: 'TOKEN', path: 'docs/code' },
    });
    expect(grep).not.toContain('SRC-ONLY-TOKEN');
    expect(grep).toContain('leads to src through a symbolic link');
    // What the scope covers by name and by place still works.
    expect(
      await runWithSkill(root, { toolName: 'read', input: { path: 'docs/guide.md' } }),
    ).toContain('the guide');
  });

  it('is checked again on the file the tools open, for a link made after the call was allowed', () => {
    // The call is authorized by the path it names; a link swapped in before the open is caught by
    // the check on the kernel's path of the opened file.
    const root = realpathSync(scopedWorkspace('skill-scope-open'));
    const skill = loadSkills({ workspace: root, home }).skills.find((s) => s.name === 'docs-only');
    const policy = codingPermissionPolicy({
      workspace: root,
      config: loadConfig({ env: {}, cwd: base }),
    });
    const context = { workspace: root, home };
    expect(
      writeRefusedBy(policy, context, skill)(join(root, 'src', 'x.ts'), 'docs/code/x.ts'),
    ).toContain('leads to src/x.ts through a symbolic link');
    expect(
      readRefusedBy(policy, context, skill)(join(root, 'src', 'secret.ts'), 'docs/code/secret.ts'),
    ).toContain('does not cover src/secret.ts');
    expect(
      readRefusedBy(policy, context)(join(root, 'src', 'secret.ts'), 'docs/code/secret.ts'),
    ).toBeUndefined();
  });
});
