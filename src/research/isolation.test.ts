import { describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import { testContext, testSettings } from '../test/research-fakes.js';
import { isolateSubgraphState, validateOutputState } from './isolation.js';
import { subagentNode } from './subagent-node.js';
import type { SubagentInput } from './subagent-state.js';

const tasks = [
  { id: 'task-1', description: 'What is a ZMP?' },
  { id: 'task-2', description: 'How does MPC keep balance?' },
];
const finding = (taskId: string) => ({
  taskId,
  task: 't',
  summary: 's',
  reasoning: '',
  citations: [],
  mode: 'extractive' as const,
  status: 'done' as const,
});

describe('isolateSubgraphState', () => {
  it('gives a subagent only the query, its own task and the visited sources, as a copy', () => {
    const parent = {
      query: 'q',
      tasks,
      visitedSources: [{ identifier: 'a', sourceType: 'web' as const }],
      findings: ['secret'],
    };
    const input = isolateSubgraphState(parent, 'task-2');
    expect(Object.keys(input).sort()).toEqual(['query', 'subagentTasks', 'visitedSources']);
    expect(input.subagentTasks).toEqual([tasks[1]]);
    input.visitedSources.push({ identifier: 'b', sourceType: 'web' });
    expect(parent.visitedSources).toHaveLength(1);
  });
});

describe('validateOutputState and subagentNode', () => {
  const input: SubagentInput = { query: 'q', subagentTasks: [tasks[0]!], visitedSources: [] };

  it('accepts the three allowed fields', () => {
    const output = {
      subagentFindings: [finding('task-1')],
      visitedSources: [],
      allExtractedCitations: [],
    };
    expect(validateOutputState(output, 'task-1')).toEqual(output);
  });

  it('rejects a subagent returning a forbidden field with isolation_violation', async () => {
    const runner = async () => ({
      subagentFindings: [finding('task-1')],
      visitedSources: [],
      allExtractedCitations: [],
      query: 'rewritten',
    });
    const error = await subagentNode(input, testContext(), runner).catch((e: unknown) => e);
    expect(isCohortError(error, 'isolation_violation')).toBe(true);
    expect((error as Error).message).toContain('may not write: query');
  });

  it("rejects a finding written into another task's namespace", () => {
    const output = {
      subagentFindings: [finding('task-2')],
      visitedSources: [],
      allExtractedCitations: [],
    };
    expect(() => validateOutputState(output, 'task-1')).toThrow(/namespace of task-2/);
  });

  it('turns a subagent timeout into empty findings with the reason', async () => {
    const never = () => new Promise<never>(() => undefined);
    const output = await subagentNode(
      input,
      testContext({ settings: testSettings({ timeoutSubagent: 0.05 }) }),
      never,
    );
    expect(output.subagentFindings[0]).toMatchObject({
      taskId: 'task-1',
      status: 'timeout',
      reason: 'subagent task-1 timed out after 50 ms',
    });
  });

  it('turns a crash into a failed finding', async () => {
    const output = await subagentNode(input, testContext(), async () => {
      throw new Error('boom');
    });
    expect(output.subagentFindings[0]).toMatchObject({
      status: 'failed',
      reason: 'subagent task-1 failed: boom',
    });
  });
});
