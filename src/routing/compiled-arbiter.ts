import type { RouteResult } from '../schema/index.js';
import type { RoutingArbiterModel } from './arbiter.js';
import { normalizeWords, stemWord } from './query-text.js';

/**
 * A fitted arbiter laid out for routing's hot path: weights in a `Map` of typed arrays, and each
 * word's character n-gram weights summed once and kept (bounded, so odd input cannot grow it).
 * It computes the same logits as `arbiterFeatures` + the model's weights, without building the
 * feature list of every question (differential test in `arbiter.test.ts`).
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
/** Weight of each character n-gram (as in `arbiterFeatures`). */
export const CHAR_GRAM_VALUE = 0.3;

/** Lays a validated model out for routing (see {@link CompiledArbiter}). */
export function compileArbiter(model: RoutingArbiterModel): CompiledArbiter {
  const width = model.agents.length;
  const weights = new Map<string, Float64Array>();
  for (const [name, vector] of Object.entries(model.weights))
    weights.set(name, Float64Array.from(vector));
  const grams = new Map<string, Float64Array | null>();
  const add = (logits: Float64Array, name: string, value: number) => {
    const vector = weights.get(name);
    if (!vector) return;
    for (let k = 0; k < width; k += 1) logits[k]! += vector[k]! * value;
  };
  // The summed weights of one word's 3- and 4-grams, or null when none has a weight.
  const gramsOf = (word: string): Float64Array | null => {
    let sum = grams.get(word);
    if (sum !== undefined) return sum;
    const padded = `<${word}>`;
    const total = new Float64Array(width);
    const counts = new Map<string, number>();
    for (const n of [3, 4])
      for (let i = 0; i + n <= padded.length; i += 1) {
        const gram = `g=${padded.slice(i, i + n)}`;
        counts.set(gram, (counts.get(gram) ?? 0) + 1);
      }
    let any = false;
    for (const [gram, count] of counts)
      if (weights.has(gram)) {
        any = true;
        add(total, gram, CHAR_GRAM_VALUE * count);
      }
    sum = any ? total : null;
    if (grams.size < WORD_CACHE_LIMIT) grams.set(word, sum);
    return sum;
  };
  return {
    model,
    logits(query, decision) {
      const logits = Float64Array.from(model.bias);
      const agent = decision.primaryAgent;
      add(logits, `r=${agent}`, 1);
      add(logits, `p=${decision.phase}`, 1);
      add(logits, `rp=${agent}|${decision.phase}`, 1);
      add(logits, `i=${decision.intent ?? 'none'}`, 1);
      add(logits, `c=${agent}`, decision.confidence);
      if (decision.offTopic) add(logits, 'off', 1);
      for (const name in decision.scores) {
        const score = decision.scores[name]!;
        if (score !== 0) add(logits, `s=${decision.phase}|${name}`, score);
      }
      const words = normalizeWords(query);
      const seen = new Set<string>();
      const once = (name: string) => {
        if (seen.has(name)) return;
        seen.add(name);
        add(logits, name, 1);
      };
      let previous: string | undefined;
      for (const word of words) {
        const stem = stemWord(word);
        once(`w=${stem}`);
        if (previous !== undefined) once(`b=${previous}_${stem}`);
        previous = stem;
      }
      const first = words[0] === undefined ? undefined : stemWord(words[0]);
      if (first !== undefined) once(`f=${first}`);
      if (words[1] !== undefined) once(`f2=${first}_${stemWord(words[1])}`);
      if (model.charGrams)
        for (const word of words) {
          const sum = gramsOf(word);
          if (sum) for (let k = 0; k < width; k += 1) logits[k]! += sum[k]!;
        }
      return logits;
    },
  };
}
