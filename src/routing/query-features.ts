import type { IntentCues } from './intent-cues.js';
import type { QueryText } from './query-text.js';

/** How much each kind of feature counts in the classifier. */
export interface FeatureWeights {
  /** Stemmed words. */
  word: number;
  /** Adjacent stem pairs, with a start marker ("^ what"), which carry the question's form. */
  bigram: number;
  /** Character 3- to 5-grams of each word: robust to typos and unseen inflections. */
  char: number;
  /** Intent cues (definition, explanation, specs, guidance, troubleshooting) and the main intent. */
  cue: number;
  /** One feature per agent whose keywords matched, scaled by the keyword score. */
  keyword: number;
}

/** Feature weights chosen by leave-one-out accuracy on the book agents' examples. */
export const DEFAULT_FEATURE_WEIGHTS: FeatureWeights = {
  word: 1,
  bigram: 1,
  char: 0.1,
  cue: 2,
  keyword: 4,
};

// Words recur from query to query: their n-grams are built once (bounded, so odd input cannot grow it).
const GRAM_CACHE = new Map<string, string[]>();
const GRAM_CACHE_LIMIT = 20_000;

/** The character 3- to 5-grams of a word, as classifier feature keys (cached). */
export function charGrams(word: string): string[] {
  let grams = GRAM_CACHE.get(word);
  if (!grams) {
    grams = [];
    const padded = ` ${word} `;
    for (let n = 3; n <= 5; n += 1) {
      for (let i = 0; i + n <= padded.length; i += 1) grams.push(`c:${padded.slice(i, i + n)}`);
    }
    if (GRAM_CACHE.size < GRAM_CACHE_LIMIT) GRAM_CACHE.set(word, grams);
  }
  return grams;
}

const add = (features: Map<string, number>, key: string, value: number) => {
  if (value > 0) features.set(key, (features.get(key) ?? 0) + value);
};

/**
 * Turns a query into the weighted sparse features the intent classifier reads.
 *
 * @example
 * const features = extractFeatures(analyzeText('What is a topic?'), detectIntentCues(words), {});
 */
export function extractFeatures(
  text: QueryText,
  cues: IntentCues,
  keywordScores: Readonly<Record<string, number>>,
  weights: FeatureWeights = DEFAULT_FEATURE_WEIGHTS,
  options: { charGrams?: boolean } = {},
): Map<string, number> {
  const features = new Map<string, number>();
  const { stems, words } = text;
  let previous = '^';
  for (const stem of stems) {
    add(features, `w:${stem}`, weights.word);
    add(features, `b:${previous} ${stem}`, weights.bigram);
    previous = stem;
  }
  if (weights.char > 0 && options.charGrams !== false) {
    for (const word of words) for (const gram of charGrams(word)) add(features, gram, weights.char);
  }
  for (const cue of cues.cues) add(features, `q:${cue}`, weights.cue);
  add(features, `i:${cues.intent}`, weights.cue);
  for (const [agent, score] of Object.entries(keywordScores))
    add(features, `k:${agent}`, weights.keyword * score);
  return features;
}

/**
 * A word's character n-grams as one cached classifier bundle: at query time they are summed once
 * per word instead of once per query.
 */
export function charGramBundles(
  words: readonly string[],
  weights: FeatureWeights = DEFAULT_FEATURE_WEIGHTS,
): Array<{ key: string; features(): Iterable<readonly [string, number]> }> {
  if (weights.char <= 0) return [];
  return words.map((word) => ({
    key: word,
    features: () => charGrams(word).map((gram) => [gram, weights.char] as const),
  }));
}
