import { CohortError } from '../errors/index.js';
import type { ResearchTask, VisitedSource } from '../schema/index.js';
import { SubagentOutput, type SubagentInput, type SubagentState } from './subagent-state.js';

/** The fields a subagent may read (spec: isolate_subgraph_state). */
export const SUBAGENT_INPUT_FIELDS = ['query', 'subagentTasks', 'visitedSources'] as const;
/** The fields a subagent may write (spec: subagent_node output filter). */
export const SUBAGENT_OUTPUT_FIELDS = [
  'subagentFindings',
  'visitedSources',
  'allExtractedCitations',
] as const;

/**
 * isolate_subgraph_state: a sanitised, deep-copied input holding only the query, this
 * subagent's own task and the visited sources. Nothing else of the run reaches a subagent, and
 * changes it makes to its copy never reach the parent.
 *
 * @example
 * const input = isolateSubgraphState({ query, tasks, visitedSources }, 'task-2');
 */
export function isolateSubgraphState(
  parent: {
    query: string;
    tasks: readonly ResearchTask[];
    visitedSources: readonly VisitedSource[];
  },
  taskId: string,
): SubagentInput {
  const task = parent.tasks.find((candidate) => candidate.id === taskId);
  if (!task) throw new CohortError('not_found', `No research task "${taskId}" in this run.`);
  return structuredClone({
    query: parent.query,
    subagentTasks: [task] as [ResearchTask],
    visitedSources: [...parent.visitedSources],
  });
}

/** The allowed output fields of a finished subagent graph (the spec's wrapper filter). */
export function extractSubagentOutput(state: SubagentState): SubagentOutput {
  return {
    subagentFindings: state.subagentFindings,
    visitedSources: state.visitedSources,
    allExtractedCitations: state.extractedCitations,
  };
}

/**
 * validate_output_state: accepts only {@link SUBAGENT_OUTPUT_FIELDS}, well formed, with every
 * finding written under the subagent's own namespace (its task id). Anything else is an
 * `isolation_violation` error.
 *
 * @example
 * const output = validateOutputState(raw, 'task-2');
 */
export function validateOutputState(output: unknown, taskId: string): SubagentOutput {
  if (output !== null && typeof output === 'object' && !Array.isArray(output)) {
    const extra = Object.keys(output).filter(
      (key) => !(SUBAGENT_OUTPUT_FIELDS as readonly string[]).includes(key),
    );
    if (extra.length > 0) {
      throw new CohortError(
        'isolation_violation',
        `Subagent ${taskId} returned field(s) it may not write: ${extra.join(', ')}. A subagent may return only ${SUBAGENT_OUTPUT_FIELDS.join(', ')}.`,
        { field: extra[0] },
      );
    }
  }
  const parsed = SubagentOutput.safeParse(output);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CohortError(
      'isolation_violation',
      `Subagent ${taskId} returned a malformed ${issue?.path.join('.') || 'output'}: ${issue?.message ?? 'invalid'}.`,
      { cause: parsed.error },
    );
  }
  const foreign = parsed.data.subagentFindings.find((finding) => finding.taskId !== taskId);
  if (foreign) {
    throw new CohortError(
      'isolation_violation',
      `Subagent ${taskId} wrote a finding into the namespace of ${foreign.taskId}; each subagent writes only under its own task id.`,
    );
  }
  return parsed.data;
}
