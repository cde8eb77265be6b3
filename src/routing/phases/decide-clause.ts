import type { RouteResult } from '../../schema/index.js';
import type { Classification } from '../intent-classifier.js';
import type { IntentCue } from '../intent-cues.js';
import type { AnalyzedQuery, KnownForm, RoutingModel } from '../routing-model.js';
import { bookHomePhase } from './book-home.js';
import { bookStructurePhase } from './book-structure.js';
import { definitionPhase } from './definition.js';
import { intentPhase } from './intent.js';
import { keywordPhase } from './keyword.js';
import { offTopicPhase } from './off-topic.js';
import { round, type Phase, type PhaseDecision, type PhaseSettings } from './phase.js';
import { phaseContext } from './phase-context.js';
import { secondaryAgents } from './secondary.js';
import { unknownWordsPhase } from './unknown-words.js';

/**
 * The phases in the order they are asked; the first that decides wins. The subject check, an ask
 * about the book's own structure and the definition form (R3) come before keywords, so neither an off-topic word nor a domain keyword
 * overrides them; the intent phase always decides.
 */
export const PHASES: readonly Phase[] = [
  offTopicPhase,
  bookStructurePhase,
  definitionPhase,
  keywordPhase,
  bookHomePhase,
  unknownWordsPhase,
  intentPhase,
];

/**
 * The scores rounded for the result, in the same key order (no entry arrays); the classifier's
 * probabilities best first, from `ranked` (results have always listed them so; the classifier
 * keeps its own object in the labels' order).
 */
function roundedScores(
  scores: Readonly<Record<string, number>>,
  ranked: Classification['ranked'] | undefined,
): Record<string, number> {
  const rounded: Record<string, number> = {};
  if (ranked) {
    for (const { label, probability } of ranked) rounded[label] = round(probability);
    return rounded;
  }
  for (const name of Object.keys(scores)) rounded[name] = round(scores[name] as number);
  return rounded;
}

/** One routing decision with what it was made from. */
export interface Decision {
  result: RouteResult;
  analyzed: AnalyzedQuery;
  classification: Classification;
}

/**
 * Routes one clause (or a whole one-clause question) through {@link PHASES}, then adds its
 * secondary agents. `form` overrides the detected question form (see {@link phaseContext}).
 *
 * @example
 * decideClause(model, 'Capstone milestones', settings).result.primaryAgent; // 'capstone'
 */
export function decideClause(
  model: RoutingModel,
  query: string,
  settings: PhaseSettings,
  form?: IntentCue,
  known?: KnownForm,
): Decision {
  const context = phaseContext(model, query, settings, form, known);
  let decision: PhaseDecision | undefined;
  for (const phase of PHASES) {
    decision = phase(context);
    if (decision) break;
  }
  // The intent phase always decides, so the chain never ends empty.
  const { primary, phase, confidence, scores } = decision!;
  const { analyzed } = context;
  const corrected =
    analyzed.corrections.length > 0
      ? ` (read ${analyzed.corrections.map(([typo, word]) => `"${typo}" as "${word}"`).join(', ')})`
      : '';
  const secondary = secondaryAgents(context, primary);
  const result: RouteResult = {
    primaryAgent: primary,
    secondaryAgents: secondary,
    confidence: round(Math.min(1, Math.max(0, confidence))),
    routingReason: decision!.reason + corrected,
    isMultiDomain: secondary.length > 0,
    phase,
    scores: roundedScores(
      scores,
      scores === context.classification.probabilities ? context.classification.ranked : undefined,
    ),
  };
  // Set after, in the same key order, rather than spread in: spreading copies by looking each
  // object's shape up, on every clause of every question.
  if (phase !== 'keyword') result.intent = context.intent;
  if (decision!.offTopic) result.offTopic = decision!.offTopic;
  if (analyzed.corrections.length > 0) result.readAs = analyzed.corrections.slice();
  return { result, analyzed, classification: context.classification };
}
