import * as z from 'zod';
import { defineTool, type LoopTool } from '../agents/loop/index.js';
import type { SubagentEnvironment } from './spawn-subagent.js';
import { spawnSubagent } from './spawn-subagent.js';
import type { SubagentResult } from './subagent-events.js';

/** The tool name the main agent calls to spawn a subagent. */
export const TASK_TOOL_NAME = 'task';

/** What the parent's context receives from one spawn: the capped report and a status line. */
export function taskToolOutput(result: SubagentResult) {
  return {
    type: result.type,
    status: result.status,
    ...result.report,
    ...(result.truncated ? { truncated: true } : {}),
    tokens: result.usage.totalTokens,
    turns: result.turns,
  };
}

/**
 * The `task` tool: `{ type, prompt }` spawns a subagent of that type (see {@link spawnSubagent})
 * and returns only its capped report. Several calls in one model step run in parallel (the loop
 * executes a step's tool calls concurrently).
 *
 * @example
 * const task = createTaskTool({ model: (ref) => provider.languageModel(ref), parentModel: 'full', config, tools, types, depth: 0 });
 * await runLoop({ model, system, messages, tools: [...tools, task], maxSteps: 20, timeoutMs: 120_000 });
 */
export function createTaskTool(env: SubagentEnvironment): LoopTool {
  const names = [...env.types.keys()];
  const list = [...env.types.values()]
    .map((type) => `- ${type.name}: ${type.description}`)
    .join('\n');
  return defineTool({
    name: TASK_TOOL_NAME,
    description: `Spawn a subagent with its own context to do a large task and return a short report. It sees only your prompt, so include everything it needs. Several task calls in one reply run in parallel.\nTypes:\n${list}`,
    inputSchema: z.object({
      type: z.enum(names as [string, ...string[]]).describe('Subagent type.'),
      prompt: z.string().min(1).describe('The complete, self-contained task for the subagent.'),
    }),
    execute: async ({ type, prompt }, { signal, span }) =>
      taskToolOutput(await spawnSubagent(env, { type, prompt }, signal, span)),
  });
}
