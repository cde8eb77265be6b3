import { agentTitle, EXTRACTIVE_NOTICE_PATTERN } from '../agents/index.js';
import type { AgentResponse } from '../schema/index.js';
import { answerFailure } from './answer-failure.js';
import {
  citationMarkers,
  formatSourcesFooter,
  mergeCitations,
  renumberMarkers,
  splitSourcesFooter,
} from '../citations/index.js';

/** The name a reader sees for the agent named `agentName` (see `agentTitle`). */
export type AgentTitleOf = (agentName: string) => string;

/** An agent's title when only its name is known: the name with underscores read as spaces. */
export const titleFromName: AgentTitleOf = (agentName) => agentTitle({ name: agentName });

/** A quoted sentence as compared across answers: no markers, no list dash, no case. */
const sentenceKey = (text: string) =>
  renumberMarkers(text, new Map())
    .replace(/^\s*-\s+/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * Drops from `body` every cited sentence already said (`seen`), so two agents quoting the same
 * passage do not repeat it; a line left empty goes too, and so does a list's heading left with no
 * items under it.
 */
function withoutRepeats(body: string, seen: Set<string>): string {
  const lines: string[] = [];
  for (const line of body.split('\n')) {
    const list = /^\s*-\s+/.test(line);
    // A prose line holds several cited sentences ("… [1] … [2]"); a list line is one item.
    const pieces = list ? [line] : line.split(/(?<=\]) +/);
    const kept = pieces.filter((piece) => {
      const key = sentenceKey(piece);
      if (citationMarkers(piece).length === 0 || key === '') return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (kept.length > 0 || line.trim() === '') lines.push(kept.join(' '));
  }
  // A list's heading ("Joints:", uncited) whose items were all said before goes with them.
  const labelled = lines.filter((line, i) => {
    const label = line.trim().endsWith(':') && citationMarkers(line).length === 0;
    return !label || /^\s*-\s+/.test(lines[i + 1] ?? '');
  });
  return labelled
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** An answer's text without its Sources footer and mode notice. */
export function answerBody(response: AgentResponse): string {
  const body = response.metadata.body;
  if (typeof body === 'string') return body;
  return splitSourcesFooter(response.response.replace(EXTRACTIVE_NOTICE_PATTERN, '')).body;
}

/**
 * The extractive multi-domain synthesis (spec R5): each agent's answer under its title (`titleOf`:
 * the agent's `title`, see `agentTitle`), with the citations merged, renumbered and
 * de-duplicated, and one Sources footer. A sentence an earlier
 * agent already quoted is not repeated; an agent left with nothing new is not shown, except to say
 * the book does not cover what it was asked. When every
 * part failed ({@link answerFailure}), the first part, failure and all, is the result.
 *
 * @example
 * const merged = mergeResponses([hardwareAnswer, capstoneAnswer], { notice: EXTRACTIVE_NOTICE });
 */
export function mergeResponses(
  parts: readonly AgentResponse[],
  options: { notice?: string; agentName?: string; titleOf?: AgentTitleOf } = {},
): AgentResponse {
  const titleOf = options.titleOf ?? titleFromName;
  // Every part failed (the model or the search down, the step cap): the merge is that failure,
  // which shells report and the session does not keep, not an answer made of apologies.
  const first = parts[0];
  if (first && parts.every((p) => answerFailure({ answer: p.response, metadata: p.metadata }))) {
    return first;
  }
  const answered = parts.filter((part) => part.sources.length > 0);
  const kept = answered.length > 0 ? answered : parts.slice(0, 1);
  const merged = mergeCitations(kept.map((part) => part.sources));
  const seen = new Set<string>();
  const bodies = kept
    .map((part, i) => ({
      part,
      body: withoutRepeats(
        renumberMarkers(answerBody(part), merged.renumber[i] ?? new Map()),
        seen,
      ),
    }))
    .filter(({ body }) => citationMarkers(body).length > 0 || kept.length === 1);
  const sections = bodies.map(({ part, body }) =>
    bodies.length > 1 ? `**${titleOf(part.agentName)}**\n\n${body}` : body,
  );
  // An ask the book does not cover is said so after the answers ("…, and what is the capital of
  // Peru?"): dropped like a part that found nothing, it left the user guessing.
  for (const part of parts)
    if (!kept.includes(part) && Array.isArray(part.metadata.uncovered))
      sections.push(answerBody(part));
  // Only passages still quoted are cited, numbered again in order of first use.
  const used = citationMarkers(sections.join('\n\n'));
  const order = new Map(used.map((n, i) => [n, i + 1]));
  const body = renumberMarkers(sections.join('\n\n'), order);
  const citations = used.flatMap((n, i) => {
    const citation = merged.citations.find((c) => c.index === n);
    return citation ? [{ ...citation, index: i + 1 }] : [];
  });
  const notice = options.notice ? `\n\n${options.notice}` : '';
  const confidences = kept.map((part) => part.confidence ?? 0);
  return {
    response: `${body}${formatSourcesFooter(citations)}${notice}`,
    sources: citations,
    // A registered agent's name (data-model spec, AgentResponse): the first part's, the route's
    // primary agent, as `agent_used` says; every agent run is in `metadata.agents`.
    agentName: options.agentName ?? first?.agentName ?? '',
    confidence: Math.max(0, ...confidences),
    metadata: {
      body,
      mode: kept[0]?.metadata.mode,
      agents: parts.map((part) => part.agentName),
    },
  };
}
