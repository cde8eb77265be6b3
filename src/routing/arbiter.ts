import * as z from 'zod';
import { softmax, softmaxInPlace } from './softmax.js';
import type { RouteResult } from '../schema/index.js';
import type { ArbiterSlot, CompiledArbiter } from './compiled-arbiter.js';
import { isArithmeticText, type Grounding } from './subject-grounding.js';
import { round } from './phases/phase.js';
import { normalizeWords, stemWord } from './query-text.js';
import { lazySchema } from '../schema/lazy-schema.js';

/**
 * The routing arbiter: a multinomial logistic regression fitted offline on labelled questions
 * (`scripts/fit-routing-arbiter.ts`, tuning halves only), which reads the rule-based decision
 * (agent, phase, confidence, scores, intent, off-topic) beside the question's words and picks the
 * primary agent. The rules generalise unevenly to wordings nobody tuned them on; the arbiter
 * learns, from about a thousand questions written blind by several people, where the rules'
 * decision is worth keeping and where the words say otherwise. Its weights are plain data,
 * validated when loaded; it applies only to a registry with exactly the agents it was fitted for.
 *
 * This is what it is besides its weights, shared by the table it is fitted as
 * ({@link RoutingArbiterModel}) and the packed layout it is saved in (`PackedArbiterFile`).
 */
export const ArbiterHeader = lazySchema(() =>
  z.object({
    /** The agents, in the order of each weight vector; the registry must have exactly these. */
    agents: z.array(z.string().min(1)).min(2),
    /** The default (fallback) agent the model was fitted with. */
    defaultAgent: z.string().min(1),
    /** Whether character 3- and 4-grams of the words are features (chosen by cross-validation). */
    charGrams: z.boolean(),
    /** The L2 penalty chosen by cross-validation, for the record. */
    ridge: z.number().nonnegative(),
    /** How many labelled decisions it was fitted on. */
    fittedOn: z.number().int().nonnegative(),
    bias: z.array(z.number()),
  }),
);
/** What the arbiter is besides its weights: what it was fitted for and how. */
export type ArbiterHeader = z.infer<typeof ArbiterHeader>;

/**
 * The arbiter as fitted (`fitArbiter`): its weights in a table of feature name → one weight per
 * agent. A file saves it packed and is validated as such (`PackedArbiterFile`).
 */
export const RoutingArbiterModel = lazySchema(() =>
  z.object({
    version: z.literal(1),
    ...ArbiterHeader.shape,
    /** Feature name → one weight per agent. */
    weights: z.record(z.string(), z.array(z.number())),
  }),
);
export type RoutingArbiterModel = z.infer<typeof RoutingArbiterModel>;

/** Weight of each character n-gram feature: many per word, each weak. */
export const CHAR_GRAM_VALUE = 0.3;

/**
 * A word's character 3- and 4-grams (the word padded with `<` and `>`), as feature names
 * (`g=…`) with how often each occurs in it: what the arbiter reads of a word it may not know
 * (typos, inflections).
 *
 * @example
 * wordGrams('gear'); // Map { 'g=<ge' => 1, 'g=gea' => 1, 'g=ear' => 1, 'g=ar>' => 1, 'g=<gea' => 1, … }
 */
export function wordGrams(word: string): Map<string, number> {
  const padded = `<${word}>`;
  const counts = new Map<string, number>();
  for (const n of [3, 4])
    for (let i = 0; i + n <= padded.length; i += 1) {
      const gram = `g=${padded.slice(i, i + n)}`;
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
  return counts;
}

/** One feature: its name and value. */
export type ArbiterFeature = [name: string, value: number];

/**
 * What the rules knew of a question beyond their decision, for the arbiter to weigh: how much of
 * its subject the book covers (and in which domains' sections), every agent's keyword score and
 * the intent classifier's probabilities, whichever phase decided. Measures of the question against
 * the book and the agents, not its words: they carry over to wordings no tuning question used
 * (5-fold cross-validation on the tuning decisions: 93.5 → 94.4 % with them).
 */
export interface ArbiterEvidence {
  grounding?:
    | Pick<
        Grounding,
        'score' | 'together' | 'uncovered' | 'named' | 'namesOnly' | 'judged' | 'domainShares'
      >
    | undefined;
  keywords: Readonly<Record<string, { score: number }>>;
  probabilities: Readonly<Record<string, number>>;
  /**
   * The same probabilities best first (the classifier's `ranked`): the order they are read in
   * when given, else `probabilities`' own order. The shipped arbiter was fitted on them best
   * first, and the logits are sums, so the order keeps them the same to the bit.
   */
  ranked?: ReadonlyArray<{ label: string; probability: number }>;
  onTopic: boolean;
  /**
   * The question's words as the caller split them (`textWords`, the same array) and its slot for
   * each word, index for index (see {@link ArbiterSlot}): no feature, only where the compiled
   * arbiter finds what it knows of each word.
   */
  words?: readonly string[];
  slots?: readonly ArbiterSlot[];
  /**
   * Whether the rules decided the question ask by ask (a multi-part question, whose secondary
   * agents are its later asks') or as one ask; unknown when unset. No feature.
   */
  multiPart?: boolean;
}

/** Uncovered subject words counted up to this many (more says no more). */
export const UNCOVERED_CAP = 3;

/**
 * The evidence's features (see {@link ArbiterEvidence}), in a fixed order: the grounding's score,
 * its together-score, how many subject words are uncovered, whether a subject word names the
 * book's or a specialist's term, whether the subject is only unknown names, whether there was a
 * subject at all, each domain's share of the subject; each agent's keyword score and classifier
 * probability; whether the question is on topic. (`compileArbiter` adds the same features in the
 * same order without naming them; the differential test in `arbiter.test.ts` holds them equal.)
 */
export function evidenceFeatures(evidence: ArbiterEvidence): ArbiterFeature[] {
  const features: ArbiterFeature[] = [];
  const g = evidence.grounding;
  if (g) {
    features.push(
      ['gs', g.score],
      ['gt', g.together],
      [`gu=${Math.min(g.uncovered.length, UNCOVERED_CAP)}`, 1],
    );
    if (g.named) features.push(['gn', 1]);
    if (g.namesOnly) features.push(['go', 1]);
    if (!g.judged) features.push(['gj0', 1]);
    for (const domain in g.domainShares) features.push([`gd=${domain}`, g.domainShares[domain]!]);
  }
  for (const agent in evidence.keywords) {
    const score = evidence.keywords[agent]!.score;
    if (score !== 0) features.push([`k=${agent}`, score]);
  }
  if (evidence.ranked)
    for (const { label, probability } of evidence.ranked)
      features.push([`q=${label}`, probability]);
  else
    for (const agent in evidence.probabilities)
      features.push([`q=${agent}`, evidence.probabilities[agent]!]);
  if (evidence.onTopic) features.push(['on', 1]);
  return features;
}

/**
 * The features the arbiter reads: the rule decision's agent, phase (and the two together),
 * calibrated confidence, deciding-phase scores, intent and off-topic flag; the question's stems,
 * stem pairs, first stem and first two stems; with `charGrams`, each word's 3- and 4-grams;
 * then, when given, the {@link evidenceFeatures} of what the rules knew of the question.
 *
 * @example
 * arbiterFeatures('What is a node?', result, false); // [['r=glossary', 1], ['w=node', 1], …]
 */
export function arbiterFeatures(
  query: string,
  decision: Pick<RouteResult, 'primaryAgent' | 'phase' | 'confidence' | 'scores' | 'intent'> & {
    offTopic?: unknown;
  },
  charGrams: boolean,
  evidence?: ArbiterEvidence,
): ArbiterFeature[] {
  const agent = decision.primaryAgent;
  const features: ArbiterFeature[] = [
    [`r=${agent}`, 1],
    [`p=${decision.phase}`, 1],
    [`rp=${agent}|${decision.phase}`, 1],
    [`i=${decision.intent ?? 'none'}`, 1],
    [`c=${agent}`, decision.confidence],
  ];
  if (decision.offTopic) features.push(['off', 1]);
  for (const [name, score] of Object.entries(decision.scores))
    if (score !== 0) features.push([`s=${decision.phase}|${name}`, score]);
  const words = normalizeWords(query);
  const stems = words.map(stemWord);
  const seen = new Set<string>();
  const once = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    features.push([name, 1]);
  };
  stems.forEach((stem, i) => {
    once(`w=${stem}`);
    if (i > 0) once(`b=${stems[i - 1]}_${stem}`);
  });
  if (stems[0] !== undefined) once(`f=${stems[0]}`);
  if (stems[1] !== undefined) once(`f2=${stems[0]}_${stems[1]}`);
  if (charGrams) {
    const grams = new Map<string, number>();
    for (const word of words)
      for (const [gram, count] of wordGrams(word))
        grams.set(gram, (grams.get(gram) ?? 0) + CHAR_GRAM_VALUE * count);
    for (const gram of grams) features.push(gram);
  }
  if (evidence) features.push(...evidenceFeatures(evidence));
  return features;
}

/** The arbiter's probabilities for each of `model.agents`, in that order. */
export function arbiterProbabilities(
  model: RoutingArbiterModel,
  features: readonly ArbiterFeature[],
): number[] {
  const logits = model.bias.slice();
  for (const [name, value] of features) {
    const weights = model.weights[name];
    if (!weights) continue;
    for (let k = 0; k < logits.length; k += 1) logits[k]! += (weights[k] ?? 0) * value;
  }
  return softmax(logits);
}

/** Whether a model was fitted for these agents and this default agent. */
export function arbiterFits(
  model: Pick<RoutingArbiterModel, 'agents' | 'defaultAgent'>,
  agentNames: readonly string[],
  defaultAgent: string,
): boolean {
  return (
    model.defaultAgent === defaultAgent &&
    agentNames.length === model.agents.length &&
    agentNames.every((name) => model.agents.includes(name))
  );
}

/** What the arbiter picks over a rule decision: another agent, with both probabilities. */
export interface ArbiterPick {
  agent: string;
  p: number;
  ruledP: number;
}

/**
 * The agent the arbiter would put first instead of the rules' one, or undefined when it keeps the
 * rules' decision: on a tie (an arbiter that knows nothing of a question changes nothing), for an
 * explicit route, and when its pick is already one of the rules' later asks (it reads the whole
 * question and cannot tell which ask comes first).
 */
export function arbiterPick(
  arbiter: CompiledArbiter,
  query: string,
  result: RouteResult,
  evidence?: ArbiterEvidence,
): ArbiterPick | undefined {
  // What the rules are sure of by R10 is not reviewed: arithmetic, and a subject that is surely
  // not the book's (a market, a sports result, names no dictionary knows). A word model fitted on
  // a few thousand questions has seen too few of them: refitted with one more set, it sent
  // "what is 3.5 * 4" to the glossary.
  if (
    result.phase === 'explicit' ||
    result.offTopic?.certain ||
    (result.phase === 'fallback' && isArithmeticText(query))
  )
    return undefined;
  const { model } = arbiter;
  const ruledAt = model.agents.indexOf(result.primaryAgent);
  if (ruledAt < 0) return undefined;
  const probabilities = softmaxInPlace(arbiter.logits(query, result, evidence));
  let best = ruledAt;
  for (let k = 0; k < probabilities.length; k += 1)
    if (probabilities[k]! > probabilities[best]!) best = k;
  const agent = model.agents[best];
  if (agent === undefined || best === ruledAt || result.secondaryAgents.includes(agent))
    return undefined;
  return { agent, p: probabilities[best]!, ruledP: probabilities[ruledAt]! };
}

/**
 * Lets the arbiter review a rule decision in place (see {@link arbiterPick}): when it picks
 * another primary agent, that agent becomes primary, the confidence becomes the arbiter's
 * probability for it and the reason says what the rules had decided.
 *
 * @example
 * arbitrate(model, 'How does a bike derailleur work?', result); // module_info → book
 */
export function arbitrate(
  arbiter: CompiledArbiter,
  query: string,
  result: RouteResult,
  evidence?: ArbiterEvidence,
): void {
  const pick = arbiterPick(arbiter, query, result, evidence);
  if (!pick) return;
  const ruled = result.primaryAgent;
  result.primaryAgent = pick.agent;
  // One ask the arbiter finds off the book's subjects needs no specialist beside the fallback:
  // the rules' secondary agents were the other specialists its words named ("Best simulation
  // games on Steam?" kept module_info), and the rules give a fallback decision none either. The
  // later asks of a multi-part question keep theirs.
  if (pick.agent === arbiter.model.defaultAgent && evidence?.multiPart === false) {
    result.secondaryAgents = [];
    delete result.secondaryAsks;
    delete result.primaryAsk;
    delete result.secondaryOffTopic;
    result.isMultiDomain = false;
  }
  // The off-topic subject is the fallback's reason to quote nothing; a specialist answers.
  if (pick.agent !== arbiter.model.defaultAgent) delete result.offTopic;
  result.confidence = round(pick.p);
  result.routingReason =
    `Arbiter: ${pick.agent} (p=${round(pick.p)}) over the rules' ${ruled} (p=${round(pick.ruledP)}), ` +
    `learnt from ${arbiter.model.fittedOn} labelled decisions on the question's words, the rules' ` +
    `decision and what they knew of the question. The rules said: ${result.routingReason}`;
}
