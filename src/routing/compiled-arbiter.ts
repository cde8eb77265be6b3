import type { RouteResult } from '../schema/index.js';
import { CHAR_GRAM_VALUE, wordGrams, type RoutingArbiterModel } from './arbiter.js';
import { normalizeWords, stemWord } from './query-text.js';

/**
 * A fitted arbiter laid out for routing's hot path. A feature is found through maps keyed by the
 * parts of its name (agent, phase, stem…), not by a name built for every question (a new string,
 * hashed on every lookup), and what the model knows of each word (its stem's weights, the pairs it
 * opens, its character n-grams summed) is worked out once per word and kept (bounded, so odd input
 * cannot grow it), in as few objects as possible: in the server, other work between questions
 * evicts the arbiter from the processor's caches, and each object read is then a trip to memory.
 * It adds the same weights in the same order as before this layout, so the logits are the same to
 * the bit; they are those of `arbiterFeatures` + the model's weights (differential test in
 * `arbiter.test.ts`), without building the feature list of every question.
 */
export interface CompiledArbiter {
  model: RoutingArbiterModel;
  logits(query: string, decision: ArbiterDecision): Float64Array;
}

/** The parts of a rule decision the arbiter reads. */
export type ArbiterDecision = Pick<
  RouteResult,
  'primaryAgent' | 'phase' | 'confidence' | 'scores' | 'intent'
> & { offTopic?: unknown };

const WORD_CACHE_LIMIT = 20_000;

/**
 * What the model knows of one word, laid out so that reading it touches little memory (routing
 * runs between other work that evicts it from the processor's caches, so each separate object
 * read costs a trip to memory): the weights of its stem (`w=`), of its stem opening the question
 * (`f=`) and of its character n-grams summed, side by side in one array; `has` says which are
 * there ({@link HAS_WORD}, {@link HAS_FIRST}, {@link HAS_GRAMS}).
 */
interface ArbiterWord {
  stem: string;
  has: number;
  /** `w=<stem>`, `f=<stem>` and the n-grams' weights, one agent-wide slot each. */
  own: Float64Array;
  /** Where the weights of `b=<stem>_<next>` start in the pairs' array, by the next stem. */
  pairs: Map<string, number> | undefined;
  /** `f2=<stem>_<next>` by the next stem, when the word opens the question. */
  firstPairs: Map<string, Float64Array> | undefined;
}
const HAS_WORD = 1;
const HAS_FIRST = 2;
const HAS_GRAMS = 4;

/**
 * The features named `<prefix><a><separator><b>`, by `a` then `b`, each as `of` makes it from its
 * weights. A name is filed under every split at the separator, so looking up (a, b) finds exactly
 * the feature named `<prefix><a><separator><b>`, whatever the parts hold.
 */
function byParts<T>(
  weights: ReadonlyMap<string, Float64Array>,
  prefix: string,
  separator: string,
  of: (weights: Float64Array) => T,
): Map<string, Map<string, T>> {
  const parts = new Map<string, Map<string, T>>();
  for (const [name, vector] of weights) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const feature = of(vector);
    for (let at = rest.indexOf(separator); at >= 0; at = rest.indexOf(separator, at + 1)) {
      const a = rest.slice(0, at);
      let inner = parts.get(a);
      if (!inner) parts.set(a, (inner = new Map()));
      inner.set(rest.slice(at + separator.length), feature);
    }
  }
  return parts;
}

/** The features named `<prefix><rest>`, by `rest`, each as `of` makes it from its weights. */
function byRest<T>(
  weights: ReadonlyMap<string, Float64Array>,
  prefix: string,
  of: (weights: Float64Array) => T,
): Map<string, T> {
  const rests = new Map<string, T>();
  for (const [name, vector] of weights)
    if (name.startsWith(prefix)) rests.set(name.slice(prefix.length), of(vector));
  return rests;
}

const itself = (weights: Float64Array) => weights;

/** Lays a validated model out for routing (see {@link CompiledArbiter}). */
export function compileArbiter(model: RoutingArbiterModel): CompiledArbiter {
  const width = model.agents.length;
  const bias = Float64Array.from(model.bias);
  const weights = new Map<string, Float64Array>();
  for (const [name, vector] of Object.entries(model.weights))
    weights.set(name, Float64Array.from(vector));
  const ruled = byRest(weights, 'r=', itself);
  const phases = byRest(weights, 'p=', itself);
  const ruledPhases = byParts(weights, 'rp=', '|', itself);
  const intents = byRest(weights, 'i=', itself);
  const confidences = byRest(weights, 'c=', itself);
  const off = weights.get('off');
  const scores = byParts(weights, 's=', '|', itself);
  const stems = byRest(weights, 'w=', itself);
  const firsts = byRest(weights, 'f=', itself);
  const firstPairs = byParts(weights, 'f2=', '_', itself);
  // Every pair's weights in one array, each after the number of the question it was last counted
  // in (a pair counts once a question), found by its offset.
  const pairNames = [...weights.keys()].filter((name) => name.startsWith('b='));
  const pairStore = new Float64Array(pairNames.length * (width + 1)).fill(-1);
  const pairAt = new Map<Float64Array, number>();
  pairNames.forEach((name, i) => {
    const vector = weights.get(name)!;
    pairStore.set(vector, i * (width + 1) + 1);
    pairAt.set(vector, i * (width + 1));
  });
  const pairs = byParts(weights, 'b=', '_', (vector) => pairAt.get(vector)!);

  const add = (logits: Float64Array, vector: Float64Array | undefined, value: number) => {
    if (!vector) return;
    for (let k = 0; k < width; k += 1) logits[k]! += vector[k]! * value;
  };
  // The `width` weights from `store[from]` on, added to the logits (times 1, as `add` does).
  const addFrom = (logits: Float64Array, store: Float64Array, from: number) => {
    for (let k = 0; k < width; k += 1) logits[k]! += store[from + k]! * 1;
  };
  // One word's 3- and 4-grams' weights summed into `total`; false when none has a weight.
  const sumGrams = (word: string, total: Float64Array): boolean => {
    let any = false;
    for (const [gram, count] of wordGrams(word)) {
      const vector = weights.get(gram);
      if (!vector) continue;
      any = true;
      add(total, vector, CHAR_GRAM_VALUE * count);
    }
    return any;
  };
  const words = new Map<string, ArbiterWord>();
  const wordOf = (word: string): ArbiterWord => {
    let known = words.get(word);
    if (known) return known;
    const stem = stemWord(word);
    const own = new Float64Array(3 * width);
    let has = 0;
    const stemWeights = stems.get(stem);
    if (stemWeights) {
      has |= HAS_WORD;
      own.set(stemWeights, 0);
    }
    const first = firsts.get(stem);
    if (first) {
      has |= HAS_FIRST;
      own.set(first, width);
    }
    // Summed in place from zeros, as into a fresh array: the same sums.
    if (model.charGrams && sumGrams(word, own.subarray(2 * width))) has |= HAS_GRAMS;
    known = { stem, has, own, pairs: pairs.get(stem), firstPairs: firstPairs.get(stem) };
    if (words.size < WORD_CACHE_LIMIT) words.set(word, known);
    return known;
  };
  // The question being read, numbered so that a pair is counted once in it.
  let question = 0;
  // The question's words. Reused: routing is synchronous.
  const records: ArbiterWord[] = [];
  // Whether one of the question's first `before` words has this stem and its weights (a stem
  // counts once a question).
  const stemCounted = (stem: string, before: number): boolean => {
    for (let i = 0; i < before; i += 1) {
      const earlier = records[i]!;
      if (earlier.has & HAS_WORD && earlier.stem === stem) return true;
    }
    return false;
  };
  return {
    model,
    logits(query, decision) {
      const logits = bias.slice();
      const agent = decision.primaryAgent;
      const phase = decision.phase;
      add(logits, ruled.get(agent), 1);
      add(logits, phases.get(phase), 1);
      add(logits, ruledPhases.get(agent)?.get(phase), 1);
      add(logits, intents.get(decision.intent ?? 'none'), 1);
      add(logits, confidences.get(agent), decision.confidence);
      if (decision.offTopic) add(logits, off, 1);
      const phaseScores = scores.get(phase);
      for (const name in decision.scores) {
        const score = decision.scores[name]!;
        if (score !== 0) add(logits, phaseScores?.get(name), score);
      }
      records.length = 0;
      question += 1;
      for (const word of normalizeWords(query)) {
        const record = wordOf(word);
        const at = records.length;
        if (record.has & HAS_WORD && !stemCounted(record.stem, at)) addFrom(logits, record.own, 0);
        const pair = at > 0 ? records[at - 1]!.pairs?.get(record.stem) : undefined;
        if (pair !== undefined && pairStore[pair] !== question) {
          pairStore[pair] = question;
          addFrom(logits, pairStore, pair + 1);
        }
        records.push(record);
      }
      const first = records[0];
      const second = records[1];
      if (first && first.has & HAS_FIRST) addFrom(logits, first.own, width);
      if (first && second) add(logits, first.firstPairs?.get(second.stem), 1);
      for (const record of records)
        if (record.has & HAS_GRAMS) addFrom(logits, record.own, 2 * width);
      return logits;
    },
  };
}
