import type { Agent, AgentRegistry } from '../agents/index.js';
import { DEFAULT_ROUTING_THRESHOLD } from '../config/index.js';
import type { BookKnowledge, RouteResult } from '../schema/index.js';
import { splitClauses } from './clauses.js';
import {
  calibrateConfidence,
  crossValidationFolds,
  fitConfidenceCalibration,
  type CalibrationPoint,
  type ConfidenceCalibration,
} from './confidence-calibration.js';
import type { Classification, ClassifierStats } from './intent-classifier.js';
import { detectIntentCues, FORM_WORDS, type IntentCue } from './intent-cues.js';
import { analyzeText, isContentWord } from './query-text.js';
import type { FeatureWeights } from './query-features.js';
import { buildRoutingModel, type AnalyzedQuery, type RoutingModel } from './routing-model.js';
import {
  DEFAULT_MIN_GROUNDING,
  isArithmetic,
  MIN_KEYWORD_DOMAIN_SHARE,
} from './subject-grounding.js';

/** Below this calibrated probability the best specialist is not trusted and the query falls back. */
export const DEFAULT_MIN_CONFIDENCE = 0.4;
/** A clause of a compound question names a secondary agent at this probability or more. */
export const CLAUSE_MIN_PROBABILITY = 0.5;
/** A specialist named by its own keywords is a secondary agent from this probability on. */
export const SECONDARY_MIN_PROBABILITY = 0.05;

/** Share of a subject's book occurrences one agent's chapters must hold to take a keyword-less question. */
export const MIN_HOME_SHARE = 0.75;

/** One ask of a multi-part question and the agent it needs. */
interface ClauseRoute {
  text: string;
  agent: string;
  probability: number;
  keywordScore: number;
}

/** One routing decision with what it was made from. */
interface Decision {
  result: RouteResult;
  analyzed: AnalyzedQuery;
  classification: Classification;
}

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
  /** False leaves confidences raw (no cross-validated calibration at build time). */
  calibrate?: boolean;
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
   */
  learn(knowledge: BookKnowledge): void;
  /** The book knowledge in use, if any. */
  readonly knowledge: BookKnowledge | undefined;
  /** How raw confidences are mapped to calibrated ones (fitted by cross-validation), if fitted. */
  readonly calibration: ConfidenceCalibration | undefined;
}

// A matched keyword names a subject unless all its words name the question's form ("how do").
const namesSubject = (matched: string) =>
  analyzeText(matched.replace(/ \(~.*\)$/, '')).words.some(
    (word) => isContentWord(word) && !FORM_WORDS.has(word),
  );

const round = (value: number) => Math.round(value * 1000) / 1000;

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
  const secondaryMin = SECONDARY_MIN_PROBABILITY;
  const minConfidence = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const minGrounding = options.minGrounding ?? DEFAULT_MIN_GROUNDING;
  let knowledge = options.knowledge;
  let model: RoutingModel | undefined;
  let builtAt = -1;
  let builtWith: BookKnowledge | undefined;
  let calibration: ConfidenceCalibration | undefined;
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
      model = buildRoutingModel(agents, fallback, modelOptions());
      builtWith = knowledge;
      calibration = options.calibrate === false ? undefined : fitCalibration(model);
    }
    return model;
  };

  // One clause (or the whole query) decided on its own: the subject check, the definition form
  // (R3), the keyword phase, then the intent classifier. `form` overrides the detected question
  // form when the ask is one clause of a longer text ("Sorry if this is basic. What is X?").
  const decideText = (m: RoutingModel, query: string, form?: IntentCue): Decision => {
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
    const intent: IntentCue = form ?? analyzed.cues.intent;
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
    // R3: "What is X?" goes to the agent that defines terms, for a term of any domain, unless
    // it asks about the book itself ("What is the book's license?").
    const definer =
      intent === 'definition'
        ? specialists.find((agent) => agent.intents.includes('definition'))
        : undefined;
    // Judged on the ask itself: "What's Gazebo, the simulator the course uses?" defines Gazebo.
    const askHead = query.split(',')[0] ?? query;
    const aboutTheBook =
      definer !== undefined &&
      ((askHead === query ? analyzed.keywords : m.keywords(askHead).keywords)[m.defaultAgent]
        ?.score ?? 0) > 0;

    // The specialist whose part of the book holds most of the subject, if one clearly does.
    const home = (() => {
      if (!grounding?.judged || grounding.covered.length === 0) return undefined;
      let found: { agent: Agent; share: number } | undefined;
      // Not the definer: its chapters hold the book's definitions, whatever a question asks.
      for (const agent of specialists) {
        if (agent.intents.includes('definition')) continue;
        const share = grounding.domainShares[agent.retrievalDomain ?? agent.domain] ?? 0;
        if (share >= MIN_HOME_SHARE && (!found || share > found.share)) found = { agent, share };
      }
      return found;
    })();

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
    } else if (definer && !aboutTheBook && (analyzed.onTopic || grounding?.judged)) {
      primary = definer.name;
      phase = 'intent';
      confidence = Math.max(probability(primary), 0.5);
      scores = classification.probabilities;
      const matched = specialists
        .filter((agent) => agent !== definer && (analyzed.keywords[agent.name]?.score ?? 0) > 0)
        .map((agent) => agent.name);
      reason =
        `Intent phase: a definition question ("What is X?", "define X"), which ${primary} answers for a term of any domain (R3)` +
        (matched.length > 0 ? `; the term is also ${matched.join(' and ')} vocabulary` : '') +
        '.';
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
    } else if (!analyzed.onTopic && home) {
      // No specialist knows the words, but the book does, and they live in one agent's chapters
      // ("Can my gaming PC from 2019 cope?" → hardware).
      primary = home.agent.name;
      phase = 'intent';
      confidence = home.share;
      scores = classification.probabilities;
      reason = `Intent phase: no specialist keyword, but the book uses ${(grounding?.covered ?? [])
        .slice(0, 3)
        .map((word) => `"${word}"`)
        .join(', ')} mostly in ${primary}'s chapters (${Math.round(home.share * 100)}%).`;
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

    // Secondary agents of a one-clause question: another specialist the query names with its own
    // keywords that the classifier also finds plausible ("What hardware do I need for the capstone?").
    // A definition is one ask, whatever domain its term is from; a keyword that only names the
    // question's form ("how do", "explain") names no subject.
    const secondary: string[] = [];
    if (primary !== m.defaultAgent && primary !== definer?.name) {
      // With book knowledge, the keyword's term must also live mostly in that agent's chapters.
      const livesWith = (agent: Agent, keyword: string) => {
        if (!m.knowledge) return true;
        const domain = agent.retrievalDomain ?? agent.domain;
        const text = analyzeText(keyword.replace(/ \(~.*\)$/, ''));
        const shares = text.stems
          .filter((_, i) => isContentWord(text.words[i] ?? ''))
          .map((stem) => m.knowledge?.domainShare(stem, domain))
          .filter((share): share is number => share !== undefined);
        return shares.length === 0 || Math.max(...shares) >= MIN_KEYWORD_DOMAIN_SHARE;
      };
      for (const agent of specialists) {
        const subjectKeyword = (analyzed.keywords[agent.name]?.matched ?? []).some(
          (keyword) => namesSubject(keyword) && livesWith(agent, keyword),
        );
        if (agent.name !== primary && subjectKeyword && probability(agent.name) >= secondaryMin)
          secondary.push(agent.name);
      }
      secondary.sort((a, b) => probability(b) - probability(a));
    }
    const result: RouteResult = {
      primaryAgent: primary,
      secondaryAgents: secondary,
      confidence: round(Math.min(1, Math.max(0, confidence))),
      routingReason: reason,
      isMultiDomain: secondary.length > 0,
      phase,
      scores: Object.fromEntries(
        Object.entries(scores).map(([name, value]) => [name, round(value)]),
      ),
      ...(phase === 'keyword' ? {} : { intent }),
    };
    return { result, analyzed, classification };
  };

  const definerOf = (m: RoutingModel) =>
    m.agents.find((agent) => agent.name !== m.defaultAgent && agent.intents.includes('definition'));

  // True when a clause says what it is about (a keyword, or a word the book covers): "and how do
  // we deploy it?" does not, so the whole question decides for it.
  const hasSubject = ({ analyzed }: Decision) =>
    Object.values(analyzed.keywords).some((match) => match.score > 0) ||
    (analyzed.grounding?.covered.length ?? 0) > 0;

  // Confidence is calibrated on decisions about examples the router did not train on: each fold
  // of the agents' examples is routed by a model trained on the other folds.
  const fitCalibration = (full: RoutingModel) => {
    const points: CalibrationPoint[] = [];
    const byAgent = new Map(
      full.agents.map((agent) => [
        agent.name,
        agent.examples.map((text, index) => ({ text, index })),
      ]),
    );
    const temperature = full.classifier.stats.temperature;
    for (const { test } of crossValidationFolds(byAgent)) {
      const held = new Set(test.map(({ label, item }) => `${label}#${item.index}`));
      // The folds reuse the full model's features and temperature; only the classifier retrains.
      const foldModel = full.fold((agent, index) => held.has(`${agent}#${index}`), temperature);
      for (const { label, item } of test) {
        const { result } = decide(item.text, foldModel);
        points.push({
          confidence: result.confidence,
          phase: result.phase,
          correct: result.primaryAgent === label,
        });
      }
    }
    return fitConfidenceCalibration(points);
  };

  const calibrated = <T extends { result: RouteResult }>(decision: T): T => ({
    ...decision,
    result: {
      ...decision.result,
      confidence: round(
        calibrateConfidence(calibration, decision.result.confidence, decision.result.phase),
      ),
    },
  });

  const decide = (query: string, m: RoutingModel) => {
    const clauses = splitClauses(query);
    const asks = clauses.filter((clause) => clause.ask);
    // "What's USD, the scene format Isaac Sim uses?": the words before the comma are the ask.
    const formOf = (text: string): IntentCue => {
      const intent = detectIntentCues(analyzeText(text).words).intent;
      const head = text.split(',')[0] ?? text;
      if (intent === 'definition' || head === text) return intent;
      return detectIntentCues(analyzeText(head).words).intent === 'definition'
        ? 'definition'
        : intent;
    };
    // One ask after some context: the ask gives the form, the whole text the subject.
    const single = asks.length === 1 ? asks[0] : asks.length === 0 ? clauses[0] : undefined;
    const whole = decideText(m, query, single ? formOf(single.text) : undefined);
    if (asks.length < 2) return { ...whole, clauses: [] as ClauseRoute[] };

    // A multi-part question: its first ask names the primary agent, each later ask that names a
    // different specialist adds it as a secondary agent.
    const parts = asks.map((ask) => ({ ask, decision: decideText(m, ask.text) }));
    const head = parts[0] && hasSubject(parts[0].decision) ? parts[0].decision : whole;
    const primary = head.result.primaryAgent;
    const secondary: string[] = [];
    for (const { decision } of parts.slice(1)) {
      const agent = decision.result.primaryAgent;
      if (
        agent !== primary &&
        agent !== m.defaultAgent &&
        decision.result.phase !== 'fallback' &&
        decision.result.confidence >= CLAUSE_MIN_PROBABILITY &&
        hasSubject(decision) &&
        (agent === definerOf(m)?.name || (decision.analyzed.keywords[agent]?.score ?? 0) > 0) &&
        !secondary.includes(agent)
      )
        secondary.push(agent);
    }
    const clauseRoutes: ClauseRoute[] = parts.map(({ ask, decision }) => ({
      text: ask.text,
      agent: decision.result.primaryAgent,
      probability: decision.result.confidence,
      keywordScore: decision.analyzed.keywords[decision.result.primaryAgent]?.score ?? 0,
    }));
    const reason =
      `Multi-part question (${asks.length} asks); first ask "${parts[0]?.ask.text ?? ''}": ${head.result.routingReason}` +
      (secondary.length > 0
        ? ` Later asks need: ${secondary.map((agent) => `${agent} ("${clauseRoutes.find((c) => c.agent === agent)?.text ?? ''}")`).join(', ')}.`
        : '');
    return {
      ...head,
      result: {
        ...head.result,
        secondaryAgents: secondary,
        isMultiDomain: secondary.length > 0,
        routingReason: reason,
      },
      clauses: clauseRoutes,
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
      return calibrated(decide(query, current())).result;
    },
    explain(query) {
      const { result, analyzed, classification, clauses } = calibrated(decide(query, current()));
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
    get calibration() {
      current();
      return calibration;
    },
    learn(next) {
      knowledge = next;
    },
    get knowledge() {
      return knowledge;
    },
  };
}
