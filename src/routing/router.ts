import type { Agent, AgentRegistry } from '../agents/index.js';
import { DEFAULT_ROUTING_THRESHOLD } from '../config/index.js';
import type { BookKnowledge, RouteResult } from '../schema/index.js';
import {
  calibrateConfidence,
  FIELD_CALIBRATION,
  type ConfidenceCalibration,
} from './confidence-calibration.js';
import {
  restoreIntentClassifier,
  type ClassifierModel,
  type ClassifierStats,
} from './intent-classifier.js';
import { arbiterFits, arbitrate, type RoutingArbiterModel } from './arbiter.js';
import { compileArbiter } from './compiled-arbiter.js';
import { ROUTING_ARBITER } from './routing-arbiter.js';
import { decideQuery, type ClauseRoute, type QueryDecision } from './phases/multi-part.js';
import { round, type PhaseSettings } from './phases/phase.js';
import type { FeatureWeights } from './query-features.js';
import { fitRouterCalibration } from './router-calibration.js';
import { buildRoutingModel, type RoutingModel } from './routing-model.js';
import { DEFAULT_MIN_GROUNDING, type Grounding } from './subject-grounding.js';

/** Below this calibrated probability the best specialist is not trusted and the query falls back. */
export const DEFAULT_MIN_CONFIDENCE = 0.4;

/** Options of {@link createRouter}; pass `config.routing` straight in. */
export interface RouterOptions {
  /** Keyword score at which phase 1 decides (config `routing.threshold`, default 0.7). */
  threshold?: number;
  /** See {@link DEFAULT_MIN_CONFIDENCE}. */
  minConfidence?: number;
  featureWeights?: FeatureWeights;
  smoothing?: number;
  /** What the book covers (see {@link Router.learn}); without it no question is judged off-topic by subject. */
  knowledge?: BookKnowledge;
  /** See {@link DEFAULT_MIN_GROUNDING} (config `routing.minGrounding`). */
  minGrounding?: number;
  /** False leaves confidences raw (no cross-validated calibration at build time, no field stage). */
  calibrate?: boolean;
  /**
   * The second calibration stage, from questions users ask rather than the agents' examples
   * (default {@link FIELD_CALIBRATION}); false leaves only the cross-validated stage.
   */
  fieldCalibration?: ConfidenceCalibration | false;
  /**
   * The arbiter that reviews each rule decision (config `routing.arbiter`): true or unset uses the
   * fitted {@link ROUTING_ARBITER} when the registry has exactly its agents and the router has book
   * knowledge (`knowledge`, or {@link Router.learn}); false turns it off.
   */
  arbiter?: boolean | RoutingArbiterModel;
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
  /** How much of the question's subject the book covers, when the router has book knowledge. */
  grounding?: Grounding;
  clauses: ClauseRoute[];
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
   * `saved.calibration` is the calibration a router with the same agents and options fitted with
   * this knowledge before (`null`: it fitted none), saved with it: it is used instead of fitting
   * again, unless agents are registered or unregistered meanwhile; `saved.classifier`, the intent
   * classifier it trained on the same agents, is used instead of training one, on the same terms.
   */
  learn(
    knowledge: BookKnowledge,
    saved?: { calibration: ConfidenceCalibration | null; classifier?: ClassifierModel },
  ): void;
  /** The book knowledge in use, if any. */
  readonly knowledge: BookKnowledge | undefined;
  /** How raw confidences are mapped to calibrated ones (fitted by cross-validation), if fitted. */
  readonly calibration: ConfidenceCalibration | undefined;
  /** What the current model's intent classifier learnt (trained when read), to save it. */
  readonly classifier: ClassifierModel;
}

function sameAgents(a: readonly Agent[], b: readonly Agent[]): boolean {
  return a.length === b.length && a.every((agent, i) => agent === b[i]);
}

/**
 * Creates the book assistant's router over `registry` (book-subagents-research.md R2, R3). The
 * phases live in `phases/` and are asked in order (see `PHASES`): the subject check against the
 * book knowledge, the definition form (R3), strong unambiguous keywords, the agent whose chapters
 * hold the subject, unknown words, then a naive Bayes intent classifier trained at start-up from
 * the agents' examples and keywords, which falls back to the registry's default agent when it is
 * not sure. Multi-part questions are decided per ask (`phases/multi-part.ts`). This file only
 * keeps the model current and calibrates confidences; the model is rebuilt lazily when agents are
 * registered or unregistered or the book knowledge changes.
 *
 * @example
 * const router = createRouter(registry, config.routing);
 * router.route('Capstone milestones').primaryAgent; // 'capstone'
 * router.route('What hardware do I need for the capstone?').secondaryAgents; // ['capstone']
 */
export function createRouter(registry: AgentRegistry, options: RouterOptions = {}): Router {
  const settings: PhaseSettings = {
    threshold: options.threshold ?? DEFAULT_ROUTING_THRESHOLD,
    minConfidence: options.minConfidence ?? DEFAULT_MIN_CONFIDENCE,
    minGrounding: options.minGrounding ?? DEFAULT_MIN_GROUNDING,
  };
  let knowledge = options.knowledge;
  let model: RoutingModel | undefined;
  let builtAt = -1;
  let builtWith: BookKnowledge | undefined;
  let calibration: ConfidenceCalibration | undefined;
  // A calibration saved with the knowledge last learnt, and the registry version it was fitted at.
  let savedCalibration:
    | {
        knowledge: BookKnowledge;
        at: number;
        calibration: ConfidenceCalibration | null;
        classifier?: ClassifierModel;
      }
    | undefined;
  const modelOptions = () => ({
    featureWeights: options.featureWeights,
    smoothing: options.smoothing,
    ...(knowledge ? { knowledge } : {}),
  });

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
      const learnt =
        savedCalibration &&
        savedCalibration.knowledge === knowledge &&
        savedCalibration.at === registry.version
          ? savedCalibration
          : undefined;
      model = buildRoutingModel(agents, fallback, {
        ...modelOptions(),
        ...(learnt?.classifier ? { classifier: restoreIntentClassifier(learnt.classifier) } : {}),
      });
      builtWith = knowledge;
      const saved = learnt?.calibration;
      calibration =
        options.calibrate === false
          ? undefined
          : saved !== undefined
            ? (saved ?? undefined)
            : fitRouterCalibration(model, settings);
    }
    return model;
  };

  // The fitted arbiter learnt from decisions made with a book's knowledge (its coverage of each
  // subject is among its evidence); a router without it would hand it evidence it never saw, and
  // it then overturned spec examples ("What hardware supports ROS 2?" to book). A model passed in
  // is the caller's, and applies either way.
  const fittedArbiter = options.arbiter === true || options.arbiter === undefined;
  const arbiter =
    options.arbiter === false
      ? undefined
      : options.arbiter === true || options.arbiter === undefined
        ? ROUTING_ARBITER()
        : compileArbiter(options.arbiter);
  // Whether the arbiter fits the registry, worked out again only when the registry changes.
  let arbiterCheckedAt = -1;
  let arbiterApplies = false;
  const arbitrated = (
    query: string,
    { result, analyzed, classification, clauses }: QueryDecision,
  ): RouteResult => {
    if (!arbiter || (fittedArbiter && !knowledge)) return result;
    if (arbiterCheckedAt !== registry.version) {
      arbiterCheckedAt = registry.version;
      arbiterApplies = arbiterFits(
        arbiter.model,
        registry.all().map((agent) => agent.name),
        registry.defaultAgent.name,
      );
    }
    if (arbiterApplies)
      arbitrate(arbiter, query, result, {
        grounding: analyzed.grounding,
        keywords: analyzed.keywords,
        probabilities: classification.probabilities,
        ranked: classification.ranked,
        onTopic: analyzed.onTopic,
        // The words the decision read and their records, where the arbiter keeps its own.
        words: analyzed.text.words,
        slots: analyzed.records,
        multiPart: clauses.length > 1,
      });
    return result;
  };

  const field =
    options.calibrate === false || options.fieldCalibration === false
      ? undefined
      : (options.fieldCalibration ?? FIELD_CALIBRATION);
  // The decision's result is made fresh for each route, so its confidence is calibrated in place
  // (no copies of the decision and its result on every route).
  const calibrated = <T extends { result: RouteResult }>(decision: T): T => {
    const { result } = decision;
    result.confidence = round(
      calibrateConfidence(
        field,
        calibrateConfidence(calibration, result.confidence, result.phase),
        result.phase,
      ),
    );
    return decision;
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
      return arbitrated(query, calibrated(decideQuery(current(), query, settings)));
    },
    explain(query) {
      const decision = calibrated(decideQuery(current(), query, settings));
      const { result, analyzed, classification, clauses } = decision;
      arbitrated(query, decision);
      return {
        result,
        keywords: analyzed.keywords,
        intent: { cues: analyzed.cues.cues, main: analyzed.cues.intent },
        // Best first, as explanations have always listed them.
        probabilities: Object.fromEntries(
          classification.ranked.map(({ label, probability }) => [label, probability]),
        ),
        corrections: analyzed.corrections,
        onTopic: analyzed.onTopic,
        ...(analyzed.grounding ? { grounding: analyzed.grounding } : {}),
        clauses,
      };
    },
    get stats() {
      return current().classifier.stats;
    },
    get calibration() {
      current();
      return calibration;
    },
    get classifier() {
      return current().classifier.model;
    },
    learn(next, saved) {
      knowledge = next;
      savedCalibration = saved && { knowledge: next, at: registry.version, ...saved };
    },
    get knowledge() {
      return knowledge;
    },
  };
}
