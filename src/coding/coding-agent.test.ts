import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type CohortConfigInput } from '../config/index.js';
import { runCodingAgent } from './coding-agent.js';
import { createScriptedModel, RECORDED, offeredTools, promptText } from '../test/scripted-model.js';
import { estimateTokens } from '../subagents/index.js';
import { findBwrap } from '../sandbox/index.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-coding-'));
const workspace = join(base, 'ws');
const home = join(base, 'home');
mkdirSync(join(workspace, 'src'), { recursive: true });
mkdirSync(home);
const BIG_FILE = `export const marker = 'FILE-CONTENT-${'x'.repeat(4000)}';\n`;
writeFileSync(join(workspace, 'src', 'retry.ts'), BIG_FILE);
const skill = (name: string, frontmatter: string, body: string) => {
  mkdirSync(join(workspace, 'skills', name), { recursive: true });
  writeFileSync(
    join(workspace, 'skills', name, 'SKILL.md'),
    `---\nname: ${name}\n${frontmatter}\n---\n${body}\n`,
  );
};
skill(
  'designer',
  'description: Plan architecture and design modules and interfaces; write design documents.\nallowed-tools: read glob grep write_doc',
  'DESIGNER-BODY: design only.',
);
skill(
  'refactor',
  'description: Restructure existing code without changing behaviour - rename, extract, remove duplication.\nmodel: fast',
  'REFACTOR-BODY: keep behaviour.',
);
mkdirSync(join(workspace, 'skills', 'refactor', 'references'));
writeFileSync(join(workspace, 'skills', 'refactor', 'references', 'checklist.md'), 'CHECKLIST');
mkdirSync(join(workspace, '.claude', 'agents'), { recursive: true });
writeFileSync(
  join(workspace, '.claude', 'agents', 'code-reviewer.md'),
  `---
name: code-reviewer
description: Expert code review specialist. Use proactively after writing code.
tools: Read, Grep, Glob
model: haiku
color: blue
permissionMode: default
---
You are a senior code reviewer. Review the code for bugs.
`,
);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const config = (overrides: CohortConfigInput = {}) =>
  loadConfig({ env: {}, cwd: base, overrides: { model: { maxSteps: 8 }, ...overrides } });
const REPORT = JSON.stringify({
  summary: 'retry policy is in src/retry.ts',
  findings: ['src/retry.ts:1 exports marker'],
  sources: [],
  files: ['src/retry.ts'],
});

describe('runCodingAgent with subagents', () => {
  it('spawns an explorer in an isolated context and adds only its capped report to the parent', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? {
              toolCalls: [
                { toolName: 'task', input: { type: 'explorer', prompt: 'Find the retry policy.' } },
              ],
            }
          : { text: 'It is in src/retry.ts.' },
      RECORDED,
    );
    const explorer = createScriptedModel(
      (call) =>
        call === 0
          ? { toolCalls: [{ toolName: 'read', input: { path: 'src/retry.ts' } }] }
          : { text: REPORT },
      RECORDED,
    );
    const result = await runCodingAgent({
      request: 'Where is the retry policy?',
      history: [
        { role: 'user', content: 'PARENT-HISTORY: we use tabs.' },
        { role: 'assistant', content: 'Noted.' },
      ],
      workspace,
      home,
      config: config(),
      model: (ref) => (ref === 'fast' ? explorer : main),
    });
    expect(result.text).toBe('It is in src/retry.ts.');

    // The subagent saw its own system prompt and the task prompt, nothing of the parent.
    const first = explorer.calls[0];
    expect(first?.prompt.map((message) => message.role)).toEqual(['system', 'user']);
    expect(promptText(first)).toContain('Find the retry policy.');
    expect(promptText(first)).not.toContain('PARENT-HISTORY');
    expect(promptText(first)).not.toContain('Where is the retry policy?');
    expect(offeredTools(first)).toEqual(['glob', 'grep', 'read']); // depth 1: no task tool
    expect(promptText(explorer.calls[1])).toContain('FILE-CONTENT-');

    // The parent's next call grew by the tool call and the report only, never the file.
    const before = main.calls[0]?.prompt ?? [];
    const after = main.calls[1]?.prompt ?? [];
    expect(after.slice(0, before.length)).toEqual(before);
    const added = JSON.stringify(after.slice(before.length));
    expect(added).toContain('retry policy is in src/retry.ts');
    expect(added).not.toContain('FILE-CONTENT-');
    expect(promptText(main.calls[0])).toContain('PARENT-HISTORY');

    expect(result.subagents).toHaveLength(1);
    expect(result.subagents[0]).toMatchObject({
      type: 'explorer',
      model: 'fast',
      status: 'completed',
      turns: 2,
    });
    expect(result.subagents[0]?.report.files).toEqual(['src/retry.ts']);
    // Usage rolls up: the main agent's two calls plus the explorer's two.
    expect(result.usage.totalTokens).toBe(240);
    expect(result.totalUsage.totalTokens).toBe(480);
  });

  it('caps the summary that reaches the parent', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? {
              toolCalls: [
                { toolName: 'task', input: { type: 'explorer', prompt: 'Summarise everything.' } },
              ],
            }
          : { text: 'ok' },
      RECORDED,
    );
    const huge = JSON.stringify({
      summary: 'S'.repeat(40_000),
      findings: Array.from({ length: 200 }, (_, i) => `finding ${i} ${'f'.repeat(100)}`),
      files: [],
    });
    const explorer = createScriptedModel(() => ({ text: huge }), RECORDED);
    const result = await runCodingAgent({
      request: 'Summarise the repo',
      workspace,
      home,
      config: config({ subagents: { summaryMaxTokens: 300 } }),
      model: (ref) => (ref === 'fast' ? explorer : main),
    });
    expect(result.subagents[0]?.truncated).toBe(true);
    const added = (main.calls[1]?.prompt ?? []).slice((main.calls[0]?.prompt ?? []).length);
    const toolMessage = added.find((message) => message.role === 'tool');
    const output = JSON.stringify(toolMessage?.content);
    expect(estimateTokens(output)).toBeLessThan(300 + 60); // the cap plus the message envelope
    expect(output).toContain('cut to fit');
  });

  it('ends a subagent that exhausts its turn budget and reports it', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? {
              toolCalls: [
                { toolName: 'task', input: { type: 'explorer', prompt: 'Search forever.' } },
              ],
            }
          : { text: 'gave up' },
      RECORDED,
    );
    const explorer = createScriptedModel(
      () => ({
        toolCalls: [{ toolName: 'glob', input: { pattern: '**/*.ts' } }],
      }),
      RECORDED,
    );
    const result = await runCodingAgent({
      request: 'Search',
      workspace,
      home,
      config: config({ subagents: { maxTurns: 3 } }),
      model: (ref) => (ref === 'fast' ? explorer : main),
    });
    expect(explorer.calls).toHaveLength(3);
    expect(result.subagents[0]).toMatchObject({ status: 'budget_exceeded', turns: 3 });
    expect(result.subagents[0]?.report.summary).toContain('turns');
    expect(promptText(main.calls[1])).toContain('budget_exceeded');
  });

  it('ends a subagent that exceeds its token budget', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? {
              toolCalls: [{ toolName: 'task', input: { type: 'explorer', prompt: 'Read a lot.' } }],
            }
          : { text: 'done' },
      RECORDED,
    );
    const explorer = createScriptedModel(
      () => ({
        toolCalls: [{ toolName: 'read', input: { path: 'src/retry.ts' } }],
        usage: { inputTokens: 900, outputTokens: 200 },
      }),
      RECORDED,
    );
    const result = await runCodingAgent({
      request: 'Read',
      workspace,
      home,
      config: config({ subagents: { maxTokens: 2000 } }),
      model: (ref) => (ref === 'fast' ? explorer : main),
    });
    expect(result.subagents[0]).toMatchObject({ status: 'budget_exceeded', turns: 2 });
    expect(result.subagents[0]?.stopMessage).toContain('tokens');
    expect(result.subagents[0]?.report.files).toEqual(['src/retry.ts']);
  });

  it('runs two spawns of one step in parallel', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? {
              toolCalls: [
                { toolName: 'task', input: { type: 'explorer', prompt: 'Task A' } },
                { toolName: 'task', input: { type: 'explorer', prompt: 'Task B' } },
              ],
            }
          : { text: 'both done' },
      RECORDED,
    );
    // Each explorer waits until both have started: run one after the other, the first would wait
    // alone until the fallback and the order of events would show no overlap.
    let started = 0;
    let release: () => void = () => undefined;
    const bothStarted = new Promise<void>((resolve) => (release = resolve));
    const explorer = createScriptedModel(async () => {
      started += 1;
      if (started === 2) release();
      await Promise.race([bothStarted, new Promise((resolve) => setTimeout(resolve, 2000))]);
      return { text: JSON.stringify({ summary: 'ok' }) };
    }, RECORDED);
    const events: string[] = [];
    const result = await runCodingAgent({
      request: 'Do A and B',
      workspace,
      home,
      config: config(),
      model: (ref) => (ref === 'fast' ? explorer : main),
      onEvent: (event) => {
        if (event.type === 'subagent-start') events.push('start');
        if (event.type === 'subagent-end') events.push('end');
      },
    });
    expect(events).toEqual(['start', 'start', 'end', 'end']);
    expect(result.subagents.map((s) => s.status)).toEqual(['completed', 'completed']);
  });

  it('times a subagent out by wall time', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? { toolCalls: [{ toolName: 'task', input: { type: 'explorer', prompt: 'Hang.' } }] }
          : { text: 'moved on' },
      RECORDED,
    );
    const explorer = createScriptedModel(
      (_call, options) =>
        new Promise((_resolve, reject) =>
          options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason)),
        ),
      RECORDED,
    );
    const result = await runCodingAgent({
      request: 'Hang',
      workspace,
      home,
      config: config({ subagents: { timeoutSeconds: 0.2 } }),
      model: (ref) => (ref === 'fast' ? explorer : main),
    });
    expect(result.subagents[0]?.status).toBe('timeout');
    expect(result.text).toBe('moved on');
  });

  it('loads a Claude Code agent file unchanged and spawns it with its tools and model', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? {
              toolCalls: [
                {
                  toolName: 'task',
                  input: { type: 'code-reviewer', prompt: 'Review src/retry.ts' },
                },
              ],
            }
          : { text: 'reviewed' },
      RECORDED,
    );
    const reviewer = createScriptedModel(() => ({ text: 'Looks fine, no bugs.' }), RECORDED);
    const result = await runCodingAgent({
      request: 'Review',
      workspace,
      home,
      config: config(),
      model: (ref) => (ref === 'fast' ? reviewer : main),
    });
    const type = result.subagentTypes.types.get('code-reviewer');
    expect(type).toMatchObject({
      tools: ['Read', 'Grep', 'Glob'],
      model: 'haiku',
      extra: { color: 'blue', permissionMode: 'default' },
    });
    expect(result.subagentTypes.problems).toEqual([]);
    expect(offeredTools(reviewer.calls[0])).toEqual(['glob', 'grep', 'read']);
    expect(promptText(reviewer.calls[0])).toContain('You are a senior code reviewer.');
    // Free text instead of JSON becomes the summary.
    expect(result.subagents[0]).toMatchObject({
      model: 'fast',
      report: { summary: 'Looks fine, no bugs.' },
    });
  });
});

describe('runCodingAgent with skills', () => {
  it('shows only names and descriptions until a skill is activated', async () => {
    const main = createScriptedModel(() => ({ text: 'hello' }), RECORDED);
    const result = await runCodingAgent({
      request: 'what time is it',
      workspace,
      home,
      config: config(),
      model: () => main,
    });
    const system = promptText(main.calls[0]);
    expect(system).toContain('designer: Plan architecture');
    expect(system).not.toContain('DESIGNER-BODY');
    expect(system).not.toContain('REFACTOR-BODY');
    expect(result.activation.how).toBe('none');
  });

  it('auto-activates a skill by description: body injected, model override applied', async () => {
    const fast = createScriptedModel(() => ({ text: 'refactored' }), RECORDED);
    const full = createScriptedModel(() => ({ text: 'wrong model' }), RECORDED);
    const result = await runCodingAgent({
      request: 'please rename and extract the helpers to remove duplication',
      workspace,
      home,
      config: config(),
      model: (ref) => (ref === 'fast' ? fast : full),
    });
    expect(result.activation).toMatchObject({ how: 'auto', skill: { name: 'refactor' } });
    expect(result.model).toBe('fast');
    expect(full.calls).toHaveLength(0);
    expect(promptText(fast.calls[0])).toContain('REFACTOR-BODY');
    expect(promptText(fast.calls[0])).toContain('references/checklist.md');
    expect(offeredTools(fast.calls[0])).toContain('read_skill_resource');
  });

  it('refuses a skill resource path no file system could hold before any rule matches it', async () => {
    // A long name against a Read rule with wildcards cost seconds of picomatch on the event loop.
    const longName = `references/${'a'.repeat(4000)}`;
    const fast = createScriptedModel(
      (call) =>
        call === 0
          ? { toolCalls: [{ toolName: 'read_skill_resource', input: { path: longName } }] }
          : { text: 'done' },
      RECORDED,
    );
    const result = await runCodingAgent({
      request: 'please rename and extract the helpers to remove duplication',
      workspace,
      home,
      config: config({ permissions: { deny: ['Read(*a*b)'] } }),
      model: () => fast,
    });
    expect(result.activation).toMatchObject({ how: 'auto', skill: { name: 'refactor' } });
    expect(promptText(fast.calls[1])).toContain(
      'path holds a name of 4000 bytes (\\"aaaaaaaaaaaaaaaaaaaa…\\"), longer than a file name can be (255)',
    );
  });

  /** A run allowed bash (far-off limit of its own) with the given time limits. */
  const runLongJob = (
    limits: { callTimeoutSeconds?: number; runTimeoutSeconds?: number },
    main: ReturnType<typeof createScriptedModel>,
  ) =>
    runCodingAgent({
      request: 'run the long job',
      workspace,
      home,
      config: config({
        permissions: { allow: ['Bash'] },
        tools: { bashTimeoutSeconds: 600, ...limits },
        // Unconfined where bubblewrap is missing: the process group is killed the same way.
        sandbox: { enabled: findBwrap(undefined) !== undefined },
      }),
      model: () => main,
    });

  it('stops a tool call at tools.callTimeoutSeconds, killing what it started, and the run goes on', async () => {
    // bash's own limit is far off: the per-call limit is what stops it, with every process.
    const marker = join(workspace, 'survived.txt');
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? {
              toolCalls: [
                {
                  toolName: 'bash',
                  input: {
                    command: `(sleep 2; touch survived.txt) & setsid sleep 600 & sleep 600`,
                  },
                },
              ],
            }
          : { text: 'It took too long.' },
      RECORDED,
    );
    const started = Date.now();
    const result = await runLongJob({ callTimeoutSeconds: 1 }, main);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(result.text).toBe('It took too long.');
    expect(promptText(main.calls[1])).toMatch(
      /tool bash did not finish within 1 s \(tools\.callTimeoutSeconds\) and was stopped/,
    );
    await new Promise((done) => setTimeout(done, 2500));
    expect(existsSync(marker)).toBe(false);
  });

  it('ends a run at tools.runTimeoutSeconds, stopping the command in flight', async () => {
    // Each call had a limit (tools.callTimeoutSeconds), the run none: a model calling slow tools
    // held it for up to model.maxSteps times that.
    const main = createScriptedModel(
      () => ({ toolCalls: [{ toolName: 'bash', input: { command: 'sleep 600' } }] }),
      RECORDED,
    );
    const started = Date.now();
    const result = await runLongJob({ runTimeoutSeconds: 1 }, main);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(result.finishReason).toBe('budget');
    expect(result.stopMessage).toContain(
      'time limit of 1 s; what was running was stopped. Ask for less at once, or raise tools.runTimeoutSeconds (COHORT_RUN_TIMEOUT).',
    );
  });

  it('enforces allowed-tools: a disallowed call is refused, not run', async () => {
    const main = createScriptedModel(
      (call) =>
        call === 0
          ? {
              toolCalls: [
                { toolName: 'write', input: { path: 'src/new.ts', content: 'x' } },
                { toolName: 'write_doc', input: { path: 'docs/plan.md', content: '# Plan' } },
              ],
            }
          : { text: 'planned' },
      RECORDED,
    );
    const result = await runCodingAgent({
      request: '/designer plan the module layout',
      workspace,
      home,
      // Edits run without asking, so what refuses the write is the skill alone.
      config: config({ permissions: { defaultMode: 'acceptEdits' } }),
      model: () => main,
    });
    expect(result.activation).toMatchObject({
      how: 'explicit',
      skill: { name: 'designer' },
      request: 'plan the module layout',
    });
    expect(offeredTools(main.calls[0])).toEqual(['glob', 'grep', 'read', 'write_doc']);
    expect(existsSync(join(workspace, 'src', 'new.ts'))).toBe(false);
    expect(existsSync(join(workspace, 'docs', 'plan.md'))).toBe(true);
    expect(promptText(main.calls[1])).toContain('tool write is not allowed here');
    expect(promptText(main.calls[0])).toContain('DESIGNER-BODY');
  });

  it('takes the skill as an option and refuses an unknown one', async () => {
    const main = createScriptedModel(() => ({ text: 'ok' }), RECORDED);
    const result = await runCodingAgent({
      request: 'anything',
      skill: 'designer',
      workspace,
      home,
      config: config(),
      model: () => main,
    });
    expect(result.activation.how).toBe('option');
    await expect(
      runCodingAgent({
        request: 'x',
        skill: 'chef',
        workspace,
        home,
        config: config(),
        model: () => main,
      }),
    ).rejects.toThrow(/Unknown skill/);
  });
});
