import { analysisNode } from './analysis-node.js';
import type { SubagentNodeName } from './research-events.js';
import { retrieveNode } from './retrieve-node.js';
import { routeSourceNecessity } from './route-source-necessity.js';
import type {
  SubagentContext,
  SubagentInput,
  SubagentNode,
  SubagentNodes,
  SubagentState,
} from './subagent-state.js';
import { webSearchNode } from './web-search-node.js';

/** The spec's nodes. */
export const SUBAGENT_NODES: SubagentNodes = {
  retrieveNode,
  routeSourceNecessity,
  webSearchNode,
  analysisNode,
};

async function step(
  name: SubagentNodeName,
  node: SubagentNode,
  state: SubagentState,
  context: SubagentContext,
): Promise<SubagentState> {
  const base = { type: 'node' as const, runId: context.runId, taskId: context.taskId, node: name };
  context.emit({ ...base, status: 'started' });
  const started = context.now();
  const update = await node(state, context);
  const next = { ...state, ...update };
  const result =
    name === 'retrieveNode'
      ? [next.internalResult]
      : name === 'webSearchNode'
        ? [next.webResult, next.paperResult]
        : [];
  const reasons = result.map((r) => r?.reason).filter(Boolean);
  context.emit({
    ...base,
    status: 'finished',
    durationMs: Math.round(context.now() - started),
    ...(result.length
      ? { sources: result.reduce((sum, r) => sum + (r?.sources.length ?? 0), 0) }
      : {}),
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
    ...(name === 'analysisNode' ? { tokens: { ...context.tokens } } : {}),
  });
  return next;
}

/**
 * The subagent graph (spec: `subagent_workflow`), as plain typed steps:
 * START → retrieveNode → routeSourceNecessity → (webSearchNode →) analysisNode → END.
 * Emits a `node` event as each node starts and finishes.
 *
 * @example
 * const state = await runSubagentGraph(input, context);
 */
export async function runSubagentGraph(
  input: SubagentInput,
  context: SubagentContext,
  nodes: SubagentNodes = SUBAGENT_NODES,
): Promise<SubagentState> {
  let state: SubagentState = {
    ...input,
    taskDescription: input.subagentTasks[0].description,
    subagentFindings: [],
    extractedCitations: [],
  };
  state = await step('retrieveNode', nodes.retrieveNode, state, context);
  const next = nodes.routeSourceNecessity(state);
  context.emit({
    type: 'node',
    runId: context.runId,
    taskId: context.taskId,
    node: 'routeSourceNecessity',
    status: 'finished',
    next,
  });
  if (next === 'webSearchNode')
    state = await step('webSearchNode', nodes.webSearchNode, state, context);
  return step('analysisNode', nodes.analysisNode, state, context);
}
