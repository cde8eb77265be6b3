import type { Agent } from '../../agents/index.js';
import { quoteWords, type Phase, type PhaseContext } from './phase.js';

/** Share of a subject's book occurrences one agent's chapters must hold to take a keyword-less question. */
export const MIN_HOME_SHARE = 0.75;

/** The specialist whose part of the book holds most of the query's subject, if one clearly does. */
export function subjectHome(context: PhaseContext): { agent: Agent; share: number } | undefined {
  const grounding = context.analyzed.grounding;
  if (!grounding?.judged || grounding.covered.length === 0) return undefined;
  let found: { agent: Agent; share: number } | undefined;
  for (const agent of context.specialists) {
    // Not the definer: its chapters hold the book's definitions, whatever a question asks.
    if (agent.intents.includes('definition')) continue;
    const share = grounding.domainShares[agent.retrievalDomain ?? agent.domain] ?? 0;
    if (share >= MIN_HOME_SHARE && (!found || share > found.share)) found = { agent, share };
  }
  return found;
}

/**
 * The book-home phase: no specialist knows the query's words, but the book does, and they live
 * in one agent's chapters ("Can my gaming PC from 2019 cope?" → hardware).
 *
 * @example
 * bookHomePhase(phaseContext(model, 'Can my old desktop cope?', settings))?.primary; // 'hardware'
 */
export const bookHomePhase: Phase = (context) => {
  if (context.analyzed.onTopic) return undefined;
  const home = subjectHome(context);
  if (!home) return undefined;
  const primary = home.agent.name;
  return {
    primary,
    phase: 'intent',
    confidence: home.share,
    scores: context.classification.probabilities,
    reason: `Intent phase: no specialist keyword, but the book uses ${quoteWords(
      context.analyzed.grounding?.covered ?? [],
    )} mostly in ${primary}'s chapters (${Math.round(home.share * 100)}%).`,
  };
};
