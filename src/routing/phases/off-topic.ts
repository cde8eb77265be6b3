import { isArithmetic } from '../subject-grounding.js';
import { probabilityOf, quoteWords, round, type Phase } from './phase.js';

/**
 * The subject phase: arithmetic, and questions whose subject the book does not cover (judged from
 * the book knowledge), go to the default agent with a reason naming the uncovered words.
 *
 * @example
 * offTopicPhase(phaseContext(model, "What does 'wanderlust' mean?", settings))?.primary; // 'book'
 */
export const offTopicPhase: Phase = (context) => {
  const { model, analyzed, settings } = context;
  const grounding = analyzed.grounding;
  const arithmetic = isArithmetic(analyzed.text);
  const uncovered =
    grounding !== undefined && grounding.judged && grounding.score < settings.minGrounding;
  if (!arithmetic && !uncovered) return undefined;
  const primary = model.defaultAgent;
  return {
    primary,
    phase: 'fallback',
    confidence: Math.max(probabilityOf(context, primary), 1 - (grounding?.score ?? 0)),
    scores: context.classification.probabilities,
    reason: arithmetic
      ? `Fallback to ${primary}: arithmetic is not something the book covers.`
      : `Fallback to ${primary}: the book does not cover ${quoteWords(grounding?.uncovered ?? [])} ` +
        `(the book's share of the question's subject is ${round(grounding?.score ?? 0)} < ${settings.minGrounding}).`,
  };
};
