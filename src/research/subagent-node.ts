import { CohortError } from '../errors/index.js';
import type { Finding } from '../schema/index.js';
import { extractSubagentOutput, validateOutputState } from './isolation.js';
import { runSubagentGraph } from './subagent-graph.js';
import { settleBounded } from '../bounded-call/index.js';
import type { SubagentContext, SubagentInput, SubagentOutput } from './subagent-state.js';

/** Runs one subagent on its isolated input; returns what it claims to write (checked after). */
export type SubagentRunner = (input: SubagentInput, context: SubagentContext) => Promise<unknown>;

/** The spec's subagent: the graph, filtered to the fields a subagent may return. */
export const defaultSubagentRunner: SubagentRunner = async (input, context) =>
  extractSubagentOutput(await runSubagentGraph(input, context));

function emptyOutput(
  input: SubagentInput,
  finding: Omit<Finding, 'task' | 'citations' | 'reasoning'>,
): SubagentOutput {
  return {
    subagentFindings: [
      { ...finding, task: input.subagentTasks[0].description, citations: [], reasoning: '' },
    ],
    visitedSources: input.visitedSources,
    allExtractedCitations: [],
  };
}

/**
 * subagent_node (spec): runs a subagent on an isolated input, bounded by
 * `research.timeoutSubagent`, and validates what it returns. A timeout gives empty findings with
 * the reason; a crash gives a failed finding; a cancelled run throws `aborted` (nothing is saved);
 * an output with fields a subagent may not write throws `isolation_violation`.
 *
 * @example
 * const output = await subagentNode(isolateSubgraphState(state, 'task-1'), context);
 */
export async function subagentNode(
  input: SubagentInput,
  context: SubagentContext,
  runner: SubagentRunner = defaultSubagentRunner,
): Promise<SubagentOutput> {
  const taskId = context.taskId;
  const timed = await settleBounded((signal) => runner(input, { ...context, signal }), {
    timeoutMs: context.settings.timeoutSubagent * 1000,
    signal: context.signal,
    what: `subagent ${taskId}`,
  });
  if (!timed.ok) {
    if (timed.reason === 'aborted') {
      throw new CohortError('aborted', `Subagent ${taskId} was cancelled before it finished.`);
    }
    const mode = context.model ? 'model' : 'extractive';
    if (timed.reason === 'timeout') {
      return emptyOutput(input, {
        taskId,
        summary: 'No finding: the subagent ran out of time.',
        mode,
        status: 'timeout',
        reason: timed.message,
      });
    }
    if (timed.error instanceof CohortError && timed.error.code === 'isolation_violation')
      throw timed.error;
    return emptyOutput(input, {
      taskId,
      summary: 'No finding: the subagent failed.',
      mode,
      status: 'failed',
      reason: timed.message,
    });
  }
  return validateOutputState(timed.value, taskId);
}
