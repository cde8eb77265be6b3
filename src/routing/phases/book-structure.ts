import { workNamePattern } from '../../retrieval/index.js';
import { textWords } from '../query-text.js';
import { probabilityOf, type Phase } from './phase.js';

/**
 * An ask about where or whether the book (or course) covers something, or in what order: "Is there
 * a chapter on reinforcement learning?", "Which chapter should I read first?", "Which week do we
 * reach Nav2?", "Does the course teach linear algebra?". The subject named ("reinforcement
 * learning") is a module's, but the ask is about the book's structure, which the default agent
 * answers from the table of contents and the weekly plan.
 */
const ABOUT_THE_BOOK = new RegExp(
  String.raw`^(?:so |and |ok |also |but )?(?:` +
    String.raw`(?:is|are) there (?:a |an |any |some )?(?:chapter|chapters|section|sections|part|parts|week|weeks|lesson|lessons|unit|units) (?:on|about|that|covering|for|where|which|with)\b|` +
    String.raw`(?:which|what) (?:chapter|chapters|section|sections|part|week|weeks|lesson|unit)s? (?:should|do|does|is|are|covers?|explains?|discuss(?:es)?|talks?|introduces?|teach(?:es)?|has|have)\b|` +
    String.raw`(?:in )?which (?:chapter|section|week|part) (?:is|are|do|does)\b|` +
    // The work as every reader names it (work-names.ts): "the guide", "the docs", "this class";
    // "the class" is code's ("Does the class include a destructor?").
    String.raw`(?:does|do|will|did) ${workNamePattern('the|this')} (?:teach|cover|explain|assume|include|expect|require|discuss|go into|get into)\b)`,
);

/** True when `joined` (a question's words joined by spaces) asks about the book's structure. */
export function asksAboutBookStructure(joined: string): boolean {
  return ABOUT_THE_BOOK.test(joined);
}

/**
 * The book-structure phase: an ask about the book's chapters, weeks or what the course teaches
 * goes to the default agent, whatever subject it names.
 *
 * @example
 * bookStructurePhase(phaseContext(model, 'Is there a chapter on Nav2?', settings))?.primary; // 'book'
 */
export const bookStructurePhase: Phase = (context) => {
  const { model, ask } = context;
  if (!asksAboutBookStructure(textWords(ask).joined)) return undefined;
  const primary = model.defaultAgent;
  return {
    primary,
    phase: 'fallback',
    confidence: Math.max(probabilityOf(context, primary), 0.5),
    scores: context.classification.probabilities,
    reason: `Fallback to ${primary}: the question asks about the book's own structure (its chapters, weeks or what the course teaches), which ${primary} answers.`,
  };
};
