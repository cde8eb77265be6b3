import type { Agent, AgentRegistry } from '../agents/index.js';
import { DEFAULT_ROUTING_THRESHOLD } from '../config/index.js';
import type { BookKnowledge, RouteResult } from '../schema/index.js';
import type { Classification, ClassifierStats } from './intent-classifier.js';
import type { FeatureWeights } from './query-features.js';
import type { KeywordMatch } from './keyword-scorer.js';
import { buildRoutingModel, type AnalyzedQuery, type RoutingModel } from './routing-model.js';
import { DEFAULT_MIN_GROUNDING, isArithmetic } from './subject-grounding.js';

/** Default share of the primary's probability a secondary agent must reach (config `routing.secondaryRatio`). */
export const DEFAULT_SECONDARY_RATIO = 0.6;
/** Below this calibrated probability the best specialist is not trusted and the query falls back. */
export const DEFAULT_MIN_CONFIDENCE = 0.4;
/** A clause of a compound question names a secondary agent at this probability or more. */
export const CLAUSE_MIN_PROBABILITY = 0.5;
/** A specialist named by its own keywords is a secondary agent from this probability on. */
export const SECONDARY_MIN_PROBABILITY = 0.05;

/** Options of {@link createRouter}; pass `config.routing` straight in. */
export interface RouterOptions {
  /** Keyword score at which phase 1 decides (config `routing.threshold`, default 0.7). */
  threshold?: number;
  /** See {@link DEFAULT_SECONDARY_RATIO}. */
  secondaryRatio?: number;
  /** See {@link DEFAULT_MIN_CONFIDENCE}. */
  minConfidence?: number;
  featureWeights?: FeatureWeights;
  smoothing?: number;
  /** What the book covers (see {@link Router.learn}); without it no question is judged off-topic by subject. */
  knowledge?: BookKnowledge;
  /** See {@link DEFAULT_MIN_GROUNDING} (config `routing.minGrounding`). */
  minGrounding?: number;
}

/** Options of one `route` call. */
export interface RouteOptions {
  /** Skip routing and use this agent (an unknown name is a `not_found` error). */
  agent?: string;
}

/** Everything behind one decision, for `cohort route --explain` and debugging. */
export interface RouteExplanation {
  result: RouteResult;
  keywords: Record<string, { score: number; matched: string[] }>;
  intent: { cues: string[]; main: string };
  probabilities: Record<string, number>;
  corrections: Array<[string, string]>;
  onTopic: boolean;
  clauses: Array<{ text: string; agent: string; probability: number; keywordScore: number }>;
}

/** The router: keywords, then the intent classifier, then the default agent. */
export interface Router {
  route(query: string, options?: RouteOptions): RouteResult;
  explain(query: string): RouteExplanation;
  /** Training figures of the current model (leave-one-out accuracy, temperature...). */
  readonly stats: ClassifierStats;
  /**
   * Learns what the book covers (call at start-up and after each ingestion): questions whose
   * subject the book does not use go to the fallback agent, and a subject's domains weigh in.
   */
  learn(knowledge: BookKnowledge): void;
  /** The book knowledge in use, if any. */
  readonly knowledge: BookKnowledge | undefined;
}

// Split a compound question where a new ask starts: "..., and why ...", "... or upgrade the Jetson?"
const CLAUSE_BREAK =
  /\s*(?:[;?!]+|\.\s+|,\s*(?:and|but|or|then)\s+|,\s+(?=(?:why|how|what|which|where|should|could|can|does|do|is|are)\b)|\s+(?:and|but|or)\s+(?=(?:why|how|what|which|where|when|should|could|can|does|do|is|are|explain|define|upgrade|buy|get|whats)\b))\s*/i;

const round = (value: number) => Math.round(value * 1000) / 1000;
const percent = (value: number) => `${Math.round(value * 100)}%`;

function sameAgents(a: readonly Agent[], b: readonly Agent[]): boolean {
  return a.length === b.length && a.every((agent, i) => agent === b[i]);
}

/**
 * Creates the book assistant's router over `registry` (book-subagents-research.md R2, R3): phase 1
 * decides on strong, unambiguous keywords; phase 2 asks a naive Bayes intent classifier trained at
 * start-up from the agents' examples and keywords; phase 3 falls back to the registry's default
 * agent when neither is sure or the query shares no vocabulary with any specialist. The model is
 * rebuilt lazily when agents are registered or unregistered.
 *
 * @example
 * const router = createRouter(registry, config.routing);
 * router.route('Capstone milestones').primaryAgent; // 'capstone'
 * router.route('What hardware do I need for the capstone?').secondaryAgents; // ['capstone']
 */
export function createRouter(registry: AgentRegistry, options: RouterOptions = {}): Router {
  const threshold = options.threshold ?? DEFAULT_ROUTING_THRESHOLD;
  const secondaryRatio = options.secondaryRatio ?? DEFAULT_SECONDARY_RATIO;
  const minConfidence = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const minGrounding = options.minGrounding ?? DEFAULT_MIN_GROUNDING;
  let knowledge = options.knowledge;
  let model: RoutingModel | undefined;
  let builtAt = -1;
  let builtWith: BookKnowledge | undefined;

  const current = (): RoutingModel => {
    // The registry's version changes on every register/unregister: no per-query scan of agents.
    if (model && builtAt === registry.version && builtWith === knowledge) return model;
    const agents = registry.all();
    const fallback = registry.defaultAgent.name;
    builtAt = registry.version;
    if (
      !model ||
      builtWith !== knowledge ||
      model.defaultAgent !== fallback ||
      !sameAgents(model.agents, agents)
    ) {
      model = buildRoutingModel(agents, fallback, {
        featureWeights: options.featureWeights,
        smoothing: options.smoothing,
        ...(knowledge ? { knowledge } : {}),
      });
      builtWith = knowledge;
    }
    return model;
  };

  // `worthClassifying` picks the clauses worth the classifier's time (all of them for explain).
  const classifyClauses = (
    m: RoutingModel,
    query: string,
    worthClassifying: (keywords: Record<string, KeywordMatch>) => boolean = () => true,
  ) => {
    const parts = query.split(CLAUSE_BREAK).filter((part) => part.trim().split(/\s+/).length >= 3);
    if (parts.length < 2) return [];
    return parts.flatMap((part) => {
      const evidence = m.keywords(part);
      if (!worthClassifying(evidence.keywords)) return [];
      const analyzed = m.analyze(evidence);
      const top = m.classifier.classify(analyzed.features, analyzed.bundles).ranked[0];
      const agent = top?.label ?? m.defaultAgent;
      return [
        {
          text: part.trim(),
          agent,
          probability: round(top?.probability ?? 0),
          keywordScore: analyzed.keywords[agent]?.score ?? 0,
        },
      ];
    });
  };

  const decide = (query: string, alwaysClauses = false) => {
    const m = current();
    const allClauses = alwaysClauses ? classifyClauses(m, query) : undefined;
    const analyzed: AnalyzedQuery = m.analyze(query);
    const classification: Classification = m.classifier.classify(
      analyzed.features,
      analyzed.bundles,
    );
    const probability = (agent: string) => classification.probabilities[agent] ?? 0;
    const specialists = m.agents.filter((agent) => agent.name !== m.defaultAgent);

    // Phase 1: a specialist's keywords are strong, no other specialist's keywords matched, and the
    // question's form is one the agent serves ("What is Isaac Sim?" is a definition, not hardware).
    const byKeyword = specialists
      .map((agent) => ({ agent, ...analyzed.keywords[agent.name]! }))
      .sort((a, b) => b.score - a.score);
    const [first, second] = byKeyword;
    const intent = analyzed.cues.intent;
    const servesIntent = (agent: Agent) =>
      intent === 'general' || agent.intents.length === 0 || agent.intents.includes(intent);
    const keywordWins =
      first !== undefined &&
      first.score >= threshold &&
      (second?.score ?? 0) === 0 &&
      servesIntent(first.agent);

    let primary: string;
    let phase: RouteResult['phase'];
    let confidence: number;
    let reason: string;
    let scores: Record<string, number>;
    const best = classification.ranked.find((entry) => entry.label !== m.defaultAgent);
    const bestIsTop = classification.ranked[0]?.label !== m.defaultAgent;
    const corrected =
      analyzed.corrections.length > 0
        ? ` (read ${analyzed.corrections.map(([typo, word]) => `"${typo}" as "${word}"`).join(', ')})`
        : '';

    const grounding = analyzed.grounding;
    const arithmetic = isArithmetic(analyzed.text);
    const uncovered = grounding !== undefined && grounding.judged && grounding.score < minGrounding;

    if (arithmetic || uncovered) {
      primary = m.defaultAgent;
      phase = 'fallback';
      confidence = Math.max(probability(primary), 1 - (grounding?.score ?? 0));
      scores = classification.probabilities;
      reason = arithmetic
        ? `Fallback to ${primary}: arithmetic is not something the book covers.`
        : `Fallback to ${primary}: the book does not cover ${(grounding?.uncovered ?? [])
            .slice(0, 3)
            .map((word) => `"${word}"`)
            .join(
              ', ',
            )} (the book's share of the question's subject is ${round(grounding?.score ?? 0)} < ${minGrounding}).`;
    } else if (keywordWins && first) {
      primary = first.agent.name;
      phase = 'keyword';
      // The keyword score alone overstates certainty on short queries; the classifier agreeing
      // or not is the better evidence of how often such a decision is right.
      confidence = Math.max(probability(primary), Math.min(first.score, 0.9) * 0.9);
      scores = Object.fromEntries(byKeyword.map(({ agent, score }) => [agent.name, score]));
      reason =
        `Keyword phase: ${primary} keywords matched (${first.matched.join(', ')}), score ${first.score} ≥ threshold ${threshold}, ` +
        'and no other specialist has a keyword in the query.';
    } else if (!analyzed.onTopic) {
      primary = m.defaultAgent;
      phase = 'fallback';
      confidence = Math.max(probability(primary), 1 - (best?.probability ?? 0));
      scores = classification.probabilities;
      reason = `Fallback to ${primary}: no word of the query is known to any specialist agent (no keyword, no word seen in their examples).`;
    } else if (!bestIsTop || !best) {
      primary = m.defaultAgent;
      phase = 'fallback';
      confidence = probability(primary);
      scores = classification.probabilities;
      reason =
        `Fallback to ${primary}: the intent classifier finds the query closest to ${primary}'s examples ` +
        `(p=${round(probability(primary))}; best specialist ${best?.label ?? 'none'} p=${round(best?.probability ?? 0)}), intent "${intent}".`;
    } else if (best.probability < minConfidence) {
      primary = m.defaultAgent;
      phase = 'fallback';
      confidence = Math.max(probability(primary), 1 - best.probability);
      scores = classification.probabilities;
      reason =
        `Fallback to ${primary}: no phase is sure — keywords ${first && first.score > 0 ? `best ${first.agent.name} ${first.score}` : 'matched nothing'}, ` +
        `best intent match ${best.label} p=${round(best.probability)} < ${minConfidence}.`;
    } else {
      primary = best.label;
      phase = 'intent';
      confidence = best.probability;
      scores = classification.probabilities;
      const matched = analyzed.keywords[primary]?.matched ?? [];
      reason =
        `Intent phase: "${intent}" question, classifier picks ${primary} with p=${round(best.probability)}` +
        (matched.length > 0 ? ` (keywords: ${matched.join(', ')})` : '') +
        (first && first.score >= threshold && first.agent.name !== primary
          ? `; keywords alone favoured ${first.agent.name} (${first.score}) but ${servesIntent(first.agent) ? 'not clearly' : `it does not serve "${intent}" questions`}`
          : '') +
        '.';
    }
    reason += corrected;

    // Secondary agents: another specialist the classifier rates close to the primary, or the
    // specialist a separate clause of a compound question is about.
    const secondary = new Set<string>();
    if (primary !== m.defaultAgent) {
      const top = Math.max(probability(primary), 1e-9);
      for (const agent of specialists) {
        const p = probability(agent.name);
        // A plausible runner-up counts when the query names it with its own keyword; without one,
        // the classifier's runner-up is usually just the nearest neighbour of a single-domain
        // question, so it must come close to the primary (secondaryRatio) to count.
        const ownKeyword = (analyzed.keywords[agent.name]?.score ?? 0) > 0;
        if (
          agent.name !== primary &&
          ((ownKeyword && p >= SECONDARY_MIN_PROBABILITY) || p >= secondaryRatio * top)
        ) {
          secondary.add(agent.name);
        }
      }
      // A clause's keywords are a subset of the whole query's, so a clause can only add a
      // specialist that has a keyword in it and is not yet secondary. Most queries and most
      // clauses have none: only those are classified again (this pass dominated routing's tail).
      const candidates = specialists.filter(
        (agent) =>
          agent.name !== primary &&
          !secondary.has(agent.name) &&
          (analyzed.keywords[agent.name]?.score ?? 0) > 0,
      );
      // explain() has already classified every clause; route() classifies only the useful ones.
      const clauses =
        allClauses ??
        (candidates.length === 0
          ? []
          : classifyClauses(m, query, (keywords) =>
              candidates.some((agent) => (keywords[agent.name]?.score ?? 0) > 0),
            ));
      for (const clause of clauses) {
        // A short clause ("or should I go higher?") is noisy: its agent must also have a keyword in it.
        if (
          clause.agent !== primary &&
          clause.agent !== m.defaultAgent &&
          clause.probability >= CLAUSE_MIN_PROBABILITY &&
          clause.keywordScore > 0
        ) {
          secondary.add(clause.agent);
        }
      }
    }
    const secondaryAgents = [...secondary].sort((a, b) => probability(b) - probability(a));
    if (secondaryAgents.length > 0) {
      reason += ` Also relevant: ${secondaryAgents.map((name) => `${name} (${percent(probability(name))})`).join(', ')}.`;
    }

    const result: RouteResult = {
      primaryAgent: primary,
      secondaryAgents,
      confidence: round(Math.min(1, Math.max(0, confidence))),
      routingReason: reason,
      isMultiDomain: secondaryAgents.length > 0,
      phase,
      scores: Object.fromEntries(
        Object.entries(scores).map(([name, value]) => [name, round(value)]),
      ),
      ...(phase === 'keyword' ? {} : { intent }),
    };
    return {
      result,
      analyzed,
      classification,
      clauses: allClauses ?? [],
    };
  };

  return {
    route(query, routeOptions = {}) {
      if (routeOptions.agent !== undefined) {
        const agent = registry.require(routeOptions.agent);
        return {
          primaryAgent: agent.name,
          secondaryAgents: [],
          confidence: 1,
          routingReason: `Explicit route: the caller asked for the ${agent.name} agent.`,
          isMultiDomain: false,
          phase: 'explicit',
          scores: {},
        };
      }
      return decide(query).result;
    },
    explain(query) {
      const { result, analyzed, classification, clauses } = decide(query, true);
      return {
        result,
        keywords: analyzed.keywords,
        intent: { cues: analyzed.cues.cues, main: analyzed.cues.intent },
        probabilities: classification.probabilities,
        corrections: analyzed.corrections,
        onTopic: analyzed.onTopic,
        clauses,
      };
    },
    get stats() {
      return current().classifier.stats;
    },
    learn(next) {
      knowledge = next;
    },
    get knowledge() {
      return knowledge;
    },
  };
}
