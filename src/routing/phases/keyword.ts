import { probabilityOf, servesIntent, type Phase, type PhaseContext } from './phase.js';

/**
 * True when one specialist's keywords are strong (at least the threshold), no other specialist's
 * keywords matched, and the question's form is one the agent serves ("What is Isaac Sim?" is a
 * definition, not hardware).
 */
export function keywordWins(context: PhaseContext): boolean {
  const [first, second] = context.byKeyword;
  return (
    first !== undefined &&
    first.score >= context.settings.threshold &&
    (second?.score ?? 0) === 0 &&
    servesIntent(context, first.agent)
  );
}

/**
 * The keyword phase (R2 phase 1): strong, unambiguous keywords decide.
 *
 * @example
 * keywordPhase(phaseContext(model, 'Capstone milestones', settings))?.primary; // 'capstone'
 */
export const keywordPhase: Phase = (context) => {
  const first = context.byKeyword[0];
  if (!first || !keywordWins(context)) return undefined;
  const primary = first.agent.name;
  // Each specialist's score, strongest first: set one by one, as Object.fromEntries would, without
  // an entry array per specialist.
  const scores: Record<string, number> = {};
  for (const { agent, score } of context.byKeyword) scores[agent.name] = score;
  return {
    primary,
    phase: 'keyword',
    // The keyword score alone overstates certainty on short queries; the classifier agreeing
    // or not is the better evidence of how often such a decision is right.
    confidence: Math.max(probabilityOf(context, primary), Math.min(first.score, 0.9) * 0.9),
    scores,
    reason:
      `Keyword phase: ${primary} keywords matched (${first.matched.join(', ')}), score ${first.score} ≥ threshold ${context.settings.threshold}, ` +
      'and no other specialist has a keyword in the query.',
  };
};
