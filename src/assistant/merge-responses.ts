import { EXTRACTIVE_NOTICE } from '../agents/index.js';
import type { AgentResponse } from '../schema/index.js';
import {
  formatSourcesFooter,
  mergeCitations,
  renumberMarkers,
  splitSourcesFooter,
} from '../citations/index.js';

/** An answer's text without its Sources footer and mode notice. */
export function answerBody(response: AgentResponse): string {
  const body = response.metadata.body;
  if (typeof body === 'string') return body;
  return splitSourcesFooter(response.response.replace(EXTRACTIVE_NOTICE, '')).body;
}

/**
 * The extractive multi-domain synthesis (spec R5): each agent's answer under its name, with the
 * citations merged, renumbered and de-duplicated, and one Sources footer.
 *
 * @example
 * const merged = mergeResponses([hardwareAnswer, capstoneAnswer], { notice: EXTRACTIVE_NOTICE });
 */
export function mergeResponses(
  parts: readonly AgentResponse[],
  options: { notice?: string; agentName?: string } = {},
): AgentResponse {
  const answered = parts.filter((part) => part.sources.length > 0);
  const kept = answered.length > 0 ? answered : parts.slice(0, 1);
  const { citations, renumber } = mergeCitations(kept.map((part) => part.sources));
  const sections = kept.map((part, i) => {
    const body = renumberMarkers(answerBody(part), renumber[i] ?? new Map());
    return kept.length > 1 ? `**${part.agentName}**\n\n${body}` : body;
  });
  const body = sections.join('\n\n');
  const notice = options.notice ? `\n\n${options.notice}` : '';
  const confidences = kept.map((part) => part.confidence ?? 0);
  return {
    response: `${body}${formatSourcesFooter(citations)}${notice}`,
    sources: citations,
    agentName: options.agentName ?? kept.map((part) => part.agentName).join('+'),
    confidence: Math.max(0, ...confidences),
    metadata: {
      body,
      mode: kept[0]?.metadata.mode,
      agents: parts.map((part) => part.agentName),
    },
  };
}
