import type { Agent } from '../../agents/index.js';
import type { OffTopicSubject, RouteResult } from '../../schema/index.js';
import type { Classification } from '../intent-classifier.js';
import type { IntentCue } from '../intent-cues.js';
import type { KeywordMatch } from '../keyword-scorer.js';
import type { AnalyzedQuery, RoutingModel } from '../routing-model.js';

/** The router's thresholds, as {@link PhaseContext} carries them to every phase. */
export interface PhaseSettings {
  /** Keyword score at which the keyword phase decides (config `routing.threshold`). */
  threshold: number;
  /** Below this classifier probability the best specialist is not trusted. */
  minConfidence: number;
  /** Below this share of its subject covered by the book, a question is off-topic. */
  minGrounding: number;
}

/** One specialist's keyword evidence, as the keyword phase ranks them. */
export interface RankedKeywords extends KeywordMatch {
  agent: Agent;
}

/** Everything one phase needs to judge a query (or one clause of it). */
export interface PhaseContext {
  model: RoutingModel;
  /** The text being routed: the whole question or one of its clauses. */
  query: string;
  /**
   * The clause that asks, when context comes before it ("We're reading chapter 9. What is a
   * policy?"); else the same as `query`. The form, and whether the ask is about the book itself,
   * are read from it.
   */
  ask: string;
  analyzed: AnalyzedQuery;
  classification: Classification;
  /** The question's form: detected from its words, or given by the clause that asks. */
  intent: IntentCue;
  /** Every agent but the default one. */
  specialists: readonly Agent[];
  /** Specialists by keyword score, best first. */
  byKeyword: readonly RankedKeywords[];
  /** The specialist that defines terms (R3), if the registry has one. */
  definer: Agent | undefined;
  settings: PhaseSettings;
}

/** What a phase decides: the primary agent and why. Secondary agents are found afterwards. */
export interface PhaseDecision {
  primary: string;
  phase: RouteResult['phase'];
  confidence: number;
  reason: string;
  /** Per-agent scores of the deciding phase, for inspection. */
  scores: Record<string, number>;
  /** The subject the book does not cover (the off-topic phase). */
  offTopic?: OffTopicSubject;
}

/** One phase of the router: a decision, or `undefined` to let the next phase decide. */
export type Phase = (context: PhaseContext) => PhaseDecision | undefined;

/** The classifier's probability for `agent` (0 when it has none). */
export const probabilityOf = (context: PhaseContext, agent: string): number =>
  context.classification.probabilities[agent] ?? 0;

/** True when `agent` answers questions of the context's form (an agent with no intents serves all). */
export const servesIntent = (context: PhaseContext, agent: Agent): boolean =>
  context.intent === 'general' ||
  agent.intents.length === 0 ||
  agent.intents.includes(context.intent);

/** Rounds a score to three decimals for results and reasons. */
export const round = (value: number): number => Math.round(value * 1000) / 1000;

/** Quotes the first three words of `words` for a reason: `"a", "b", "c"`. */
export const quoteWords = (words: readonly string[]): string =>
  words
    .slice(0, 3)
    .map((word) => `"${word}"`)
    .join(', ');
