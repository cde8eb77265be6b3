import { probabilityOf, type Phase } from './phase.js';

/**
 * The unknown-words phase: a query no word of which any specialist knows (no keyword, no word of
 * their examples) goes to the default agent.
 *
 * @example
 * unknownWordsPhase(phaseContext(model, 'Unknown random query', settings))?.primary; // 'book'
 */
export const unknownWordsPhase: Phase = (context) => {
  if (context.analyzed.onTopic) return undefined;
  const { model, classification } = context;
  const best = classification.ranked.find((entry) => entry.label !== model.defaultAgent);
  const primary = model.defaultAgent;
  return {
    primary,
    phase: 'fallback',
    confidence: Math.max(probabilityOf(context, primary), 1 - (best?.probability ?? 0)),
    scores: classification.probabilities,
    reason: `Fallback to ${primary}: no word of the query is known to any specialist agent (no keyword, no word seen in their examples).`,
  };
};
