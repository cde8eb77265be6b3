import { probabilityOf, type Phase } from './phase.js';

/** Share of the subject the book must cover, in words that meet in one passage, to keep a question no agent knows a word of. */
export const BOOK_COVERS_SUBJECT = 0.8;

/**
 * The unknown-words phase: a query no word of which any specialist knows (no keyword, no word of
 * their examples) goes to the default agent.
 *
 * @example
 * unknownWordsPhase(phaseContext(model, 'Unknown random query', settings))?.primary; // 'book'
 */
export const unknownWordsPhase: Phase = (context) => {
  const { onTopic, grounding } = context.analyzed;
  if (onTopic) return undefined;
  // The agents' vocabulary is small; the book's is not. When the book covers the subject, its
  // words meeting in its passages, the question is the book's even though no agent has seen its
  // words ("what does the reference architecture look like"): the classifier decides.
  if (grounding?.judged && grounding.together >= BOOK_COVERS_SUBJECT) return undefined;
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
