import { EXTRACTIVE_NOTICE } from '../agents/index.js';
import type { AgentResponse, Citation } from '../schema/index.js';
import { formatSourcesFooter } from '../citations/index.js';

const FOOTER = /\n*---\n\*\*Sources:\*\*[\s\S]*$/;

/** An answer's text without its Sources footer and mode notice. */
export function answerBody(response: AgentResponse): string {
  const body = response.metadata.body;
  if (typeof body === 'string') return body;
  return response.response.replace(EXTRACTIVE_NOTICE, '').replace(FOOTER, '').trim();
}

const citationKey = (citation: Citation) =>
  citation.chunkId ?? `${citation.source}#${citation.section ?? ''}`;

/**
 * Merges citations of several answers into one list: de-duplicated (same passage → one number),
 * numbered sequentially in order of first appearance. Returns the merged list and, per answer,
 * how its old numbers map to the new ones.
 */
export function mergeCitations(parts: readonly AgentResponse[]): {
  citations: Citation[];
  renumber: Map<number, number>[];
} {
  const byKey = new Map<string, Citation>();
  const renumber = parts.map((part) => {
    const map = new Map<number, number>();
    for (const citation of part.sources) {
      const key = citationKey(citation);
      let merged = byKey.get(key);
      if (!merged) {
        merged = { ...citation, index: byKey.size + 1 };
        byKey.set(key, merged);
      } else if (citation.relevanceScore > merged.relevanceScore) {
        merged.relevanceScore = citation.relevanceScore;
      }
      map.set(citation.index, merged.index);
    }
    return map;
  });
  return { citations: [...byKey.values()], renumber };
}

/** Rewrites `[n]` markers through `map`; markers with no mapping are dropped. */
export function renumberMarkers(text: string, map: Map<number, number>): string {
  return text.replace(/\[(\d{1,3})\]/g, (_, n: string) => {
    const to = map.get(Number(n));
    return to === undefined ? '' : `[${to}]`;
  });
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
  const { citations, renumber } = mergeCitations(kept);
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
