import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createScriptedModel } from '../test/scripted-model.js';
import { startCodeRun } from './coding-runs.js';

// A recorded coding run keeps its trace: the main agent with its model and tool calls, and each
// subagent as an `invoke_agent <type>` span under the `task` call that spawned it, with the
// budget it used (scripted models, the real loop and tools).

const base = mkdtempSync(join(tmpdir(), 'cohort-code-trace-'));
const workspace = join(base, 'ws');
const home = join(base, 'home');
mkdirSync(join(workspace, 'src'), { recursive: true });
mkdirSync(home);
writeFileSync(join(workspace, 'src', 'retry.ts'), 'export const retries = 3;\n');
const REPORT = JSON.stringify({
  summary: 'retries is 3 in src/retry.ts',
  findings: [],
  sources: [],
  files: ['src/retry.ts'],
});

let store: Store;
beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(async () => {
  await store.close();
  rmSync(base, { recursive: true, force: true });
});

describe('the trace of a coding run', () => {
  it('nests the main agent, its calls and each subagent with its budget use', async () => {
    const main = createScriptedModel((call) =>
      call === 0
        ? {
            toolCalls: [
              { toolName: 'task', input: { type: 'explorer', prompt: 'Find the retry count.' } },
              { toolName: 'task', input: { type: 'explorer', prompt: 'Search everything.' } },
            ],
          }
        : { text: 'Three retries.' },
    );
    // The first explorer reads and reports; the second keeps searching until its turns run out.
    const explorer = createScriptedModel(
      (_call, options) =>
        JSON.stringify(options.prompt).includes('Find the retry count.')
          ? JSON.stringify(options.prompt).includes('retries = 3')
            ? { text: REPORT }
            : { toolCalls: [{ toolName: 'read', input: { path: 'src/retry.ts' } }] }
          : { toolCalls: [{ toolName: 'glob', input: { pattern: '**/*.ts' } }] },
      { modelId: 'fixture-fast' },
    );
    const { runId, result } = await startCodeRun(store.runs, {
      request: 'How many retries?',
      workspace,
      home,
      config: loadConfig({
        env: {},
        cwd: base,
        overrides: { model: { maxSteps: 8 }, subagents: { maxTurns: 2 } },
      }),
      model: (ref) => (ref === 'fast' ? explorer : main),
    });
    expect(result.text).toBe('Three retries.');

    const spans = await store.runs.spans(runId);
    const byName = (name: string) => spans.filter((span) => span.name === name);
    const [root] = byName('cohort.code');
    expect(root).toMatchObject({ parentId: null, attributes: { 'cohort.code.status': 'stop' } });
    const [agent] = byName('invoke_agent coding');
    expect(agent?.parentId).toBe(root?.spanId);
    expect(agent?.attributes).toMatchObject({
      'gen_ai.agent.name': 'coding',
      'cohort.code.subagents': 2,
      'cohort.code.total_tokens': result.totalUsage.totalTokens,
    });
    expect(byName(`chat ${main.modelId}`).every((s) => s.parentId === agent?.spanId)).toBe(true);
    const tasks = byName('execute_tool task');
    expect(tasks).toHaveLength(2);
    for (const task of tasks) expect(task.parentId).toBe(agent?.spanId);

    const subagents = byName('invoke_agent explorer');
    expect(subagents).toHaveLength(2);
    expect(subagents.map((s) => s.parentId).sort()).toEqual(tasks.map((t) => t.spanId).sort());
    const completed = subagents.find((s) => s.attributes['cohort.subagent.status'] === 'completed');
    const exhausted = subagents.find(
      (s) => s.attributes['cohort.subagent.status'] === 'budget_exceeded',
    );
    const outcome = (status: string) => result.subagents.find((s) => s.status === status);
    expect(completed).toMatchObject({
      status: 'ok',
      attributes: {
        'cohort.subagent.turns': 2,
        'cohort.subagent.max_turns': 2,
        'cohort.subagent.tokens': outcome('completed')?.usage.totalTokens,
        'cohort.subagent.budget_used': 1,
        'gen_ai.usage.input_tokens': outcome('completed')?.usage.promptTokens,
      },
    });
    expect(exhausted).toMatchObject({
      status: 'error',
      attributes: { 'cohort.subagent.turns': 2, 'cohort.subagent.budget_used': 1 },
    });
    expect(exhausted?.error).toContain('budget');
    // Each subagent's own model and tool calls nest under it.
    const read = byName('execute_tool read')[0];
    expect(read?.parentId).toBe(completed?.spanId);
    const glob = byName('execute_tool glob');
    expect(glob.length).toBeGreaterThan(0);
    for (const call of glob) expect(call.parentId).toBe(exhausted?.spanId);
    expect(await store.runs.get(runId)).toMatchObject({ kind: 'code', status: 'completed' });
  });
});
