import { isArithmetic } from '../subject-grounding.js';
import { namesSubject } from './secondary.js';
import { probabilityOf, quoteWords, round, type Phase } from './phase.js';

/**
 * The share of its subject the book must cover for a question no specialist keyword names (only
 * form words such as "how do" or "price", or none) and that uses none of the book's own technical
 * terms (words English does not know, such as "costmap"): with nothing else tying it to the book,
 * a subject that is half elsewhere ("How should I stretch my sore arm joints after the gym?") is
 * not the book's. A question naming a specialist subject needs only `routing.minGrounding`.
 */
export const MIN_GROUNDING_WITHOUT_KEYWORD = 0.5;

/**
 * The subject phase: arithmetic, and questions whose subject the book does not cover (judged from
 * the book knowledge), go to the default agent with a reason naming the uncovered words. The bar is
 * higher when no specialist keyword names the subject (see {@link MIN_GROUNDING_WITHOUT_KEYWORD}).
 *
 * @example
 * offTopicPhase(phaseContext(model, "What does 'wanderlust' mean?", settings))?.primary; // 'book'
 */
export const offTopicPhase: Phase = (context) => {
  const { model, analyzed, settings } = context;
  const grounding = analyzed.grounding;
  const arithmetic = isArithmetic(analyzed.text);
  // A keyword of the question's form alone ("how do", "price") names no subject; one of the
  // book's own technical terms ("costmap") does.
  const namedSubject =
    (grounding?.bookTerms.length ?? 0) > 0 ||
    context.specialists.some((agent) =>
      (analyzed.keywords[agent.name]?.matched ?? []).some(namesSubject),
    );
  const floor = namedSubject
    ? settings.minGrounding
    : Math.max(settings.minGrounding, MIN_GROUNDING_WITHOUT_KEYWORD);
  const uncovered = grounding !== undefined && grounding.judged && grounding.score < floor;
  if (!arithmetic && !uncovered) return undefined;
  const primary = model.defaultAgent;
  return {
    primary,
    phase: 'fallback',
    confidence: Math.max(probabilityOf(context, primary), 1 - (grounding?.score ?? 0)),
    scores: context.classification.probabilities,
    ...(arithmetic || !grounding?.uncovered.length
      ? {}
      : { offTopic: { subject: grounding.subject, uncovered: grounding.uncovered } }),
    reason: arithmetic
      ? `Fallback to ${primary}: arithmetic is not something the book covers.`
      : `Fallback to ${primary}: the book does not cover ${quoteWords(grounding?.uncovered ?? [])} ` +
        `(the book's share of the question's subject is ${round(grounding?.score ?? 0)} < ${floor}).`,
  };
};
