import type { SubagentGate } from './subagent-state.js';

/** Internal passages must add up to at least this many characters to answer without the web. */
export const MIN_INTERNAL_CONTENT_CHARS = 200;

/**
 * route_source_necessity: the gate after retrieval. Internal content that is there and says
 * something goes straight to analysis; otherwise the subagent searches the web and papers.
 *
 * @example
 * routeSourceNecessity(state); // 'analysisNode' | 'webSearchNode'
 */
export const routeSourceNecessity: SubagentGate = (state) => {
  const sources = state.internalResult?.sources ?? [];
  const chars = sources.reduce((sum, source) => sum + source.content.trim().length, 0);
  return sources.length > 0 && chars >= MIN_INTERNAL_CONTENT_CHARS
    ? 'analysisNode'
    : 'webSearchNode';
};
