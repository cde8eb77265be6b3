import { queryFeatureId, type FeatureList, type FeatureListBuilder } from './feature-ids.js';
import { PairTable } from './pair-table.js';
import type { FeatureBundle } from './intent-classifier.js';
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

// Feature keys are interned: a fresh `w:${stem}` per query costs a concatenation and a re-hash on
// every map lookup, which showed in routing's tail latency.
const KEY_LIMIT = 20_000;
const singleKeys = new Map<string, Map<string, string>>();
let keyCount = 0;

// The key is built only on a miss, by a module-level function (no closure per call).
function interned(
  cache: Map<string, Map<string, string>>,
  group: string,
  name: string,
  build: (group: string, name: string) => string,
): string {
  let byName = cache.get(group);
  if (!byName) cache.set(group, (byName = new Map()));
  let key = byName.get(name);
  if (key === undefined) {
    key = build(group, name);
    if (keyCount < KEY_LIMIT) {
      byName.set(name, key);
      keyCount += 1;
    }
  }
  return key;
}

const singleKey = (prefix: string, name: string) => `${prefix}:${name}`;
const pairKey = (first: string, second: string) => `b:${first} ${second}`;

/** The feature key `prefix:name` ("w:topic"), the same string each time (bounded cache). */
export function featureKey(prefix: string, name: string): string {
  return interned(singleKeys, prefix, name, singleKey);
}

/**
 * A stem's feature keys: its word key and its bigram keys with each stem that followed it. A
 * router's word records keep their stem's (see word-records.ts), so a question's words find them
 * without a lookup.
 */
export interface StemKeys {
  readonly stem: string;
  readonly word: string;
  /** The id of `word` (see feature-ids.ts); -1 while it has none. */
  wordId: number;
  readonly pairs: Map<string, string>;
  /** Its number in {@link pairIds} (kept stems only); -1 when it has none. */
  readonly serial: number;
}

// One lookup per stem instead of two per key (the stem, then the name): routing's hot path.
const stemKeys = new Map<string, StemKeys>();

// The id of each bigram key given one, by the serials of its two stems' keys.
const pairIds = new PairTable(1024);

/** The feature keys of a stem (kept, as the keys themselves are: bounded). */
export function keysOf(stem: string): StemKeys {
  let keys = stemKeys.get(stem);
  if (!keys) {
    const word = featureKey('w', stem);
    const kept = keyCount < KEY_LIMIT;
    const serial = kept ? stemKeys.size : -1;
    keys = { stem, word, wordId: queryFeatureId(word), pairs: new Map(), serial };
    if (kept) {
      stemKeys.set(stem, keys);
      keyCount += 1;
    }
  }
  return keys;
}

/** The bigram key of `first` then `second` (`b:first second`), kept on the first stem's keys. */
function pairWith(first: StemKeys, second: string): string {
  let key = first.pairs.get(second);
  if (key === undefined) {
    key = pairKey(first.stem, second);
    if (keyCount < KEY_LIMIT) {
      first.pairs.set(second, key);
      keyCount += 1;
    }
  }
  return key;
}

// A key given no id (past the limit) may be given one later, when a classifier trains on it.
const wordIdOf = (keys: StemKeys): number =>
  keys.wordId >= 0 ? keys.wordId : (keys.wordId = queryFeatureId(keys.word));

/** The id of the bigram key of `first` then `second` (see {@link pairWith}). */
function pairIdWith(first: StemKeys, second: StemKeys): number {
  const kept = first.serial >= 0 && second.serial >= 0;
  let id = kept ? pairIds.get(first.serial, second.serial) : -1;
  if (id < 0) {
    id = queryFeatureId(pairWith(first, second.stem));
    // Kept while its key is (bounded).
    if (kept && id >= 0 && first.pairs.has(second.stem))
      pairIds.set(first.serial, second.serial, id);
  }
  return id;
}

/** The word feature key of a stem (`w:stem`), with one lookup. */
export function wordKey(stem: string): string {
  return keysOf(stem).word;
}

// Cues, intents and agents are few: one small map each, one lookup per key.
const CUE_KEYS = new Map<string, string>();
const INTENT_KEYS = new Map<string, string>();
const AGENT_KEYS = new Map<string, string>();

function keyIn(keys: Map<string, string>, prefix: string, name: string): string {
  let key = keys.get(name);
  if (key === undefined) {
    key = featureKey(prefix, name);
    if (keys.size < KEY_LIMIT) keys.set(name, key);
  }
  return key;
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
  let previous = keysOf('^');
  for (const stem of stems) {
    const keys = keysOf(stem);
    add(features, keys.word, weights.word);
    add(features, pairWith(previous, stem), weights.bigram);
    previous = keys;
  }
  if (weights.char > 0 && options.charGrams !== false) {
    for (const word of words) for (const gram of charGrams(word)) add(features, gram, weights.char);
  }
  for (const cue of cues.cues) add(features, keyIn(CUE_KEYS, 'q', cue), weights.cue);
  add(features, keyIn(INTENT_KEYS, 'i', cues.intent), weights.cue);
  for (const agent in keywordScores)
    add(features, keyIn(AGENT_KEYS, 'k', agent), weights.keyword * (keywordScores[agent] ?? 0));
  return features;
}

// The ids of the small key families, by name (few: cues, intents, agents).
const CUE_IDS = new Map<string, number>();
const INTENT_IDS = new Map<string, number>();
const AGENT_IDS = new Map<string, number>();

function idIn(ids: Map<string, number>, keys: Map<string, string>, prefix: string, name: string) {
  let id = ids.get(name);
  if (id === undefined || id < 0) {
    id = queryFeatureId(keyIn(keys, prefix, name));
    if (ids.size < KEY_LIMIT) ids.set(name, id);
  }
  return id;
}

/**
 * {@link extractFeatures} without character n-grams, into `list` (started here): the same keys
 * in the same order with the same weights, each key by its id; each agent's keyword score is
 * read from its match (`scoreKeywords`' result as it is). `keys`, when given, are the
 * {@link keysOf} of the text's stems, index for index (a router's word records keep them).
 *
 * @example
 * const features = extractFeatureList(text, cues, matches, weights, new FeatureListBuilder());
 */
export function extractFeatureList(
  text: QueryText,
  cues: IntentCues,
  keywordScores: Readonly<Record<string, { readonly score: number }>>,
  weights: FeatureWeights,
  list: FeatureListBuilder,
  keys?: ReadonlyArray<{ readonly keys: StemKeys }>,
): FeatureList {
  list.start();
  const { stems } = text;
  let previous = keysOf('^');
  for (let i = 0; i < stems.length; i += 1) {
    const current = keys ? keys[i]!.keys : keysOf(stems[i]!);
    list.add(wordIdOf(current), current.word, weights.word);
    const pair = pairIdWith(previous, current);
    list.add(pair, pair >= 0 ? '' : pairWith(previous, current.stem), weights.bigram);
    previous = current;
  }
  for (const cue of cues.cues) {
    const id = idIn(CUE_IDS, CUE_KEYS, 'q', cue);
    list.add(id, id >= 0 ? '' : keyIn(CUE_KEYS, 'q', cue), weights.cue);
  }
  const intent = idIn(INTENT_IDS, INTENT_KEYS, 'i', cues.intent);
  list.add(intent, intent >= 0 ? '' : keyIn(INTENT_KEYS, 'i', cues.intent), weights.cue);
  for (const agent in keywordScores) {
    const id = idIn(AGENT_IDS, AGENT_KEYS, 'k', agent);
    list.add(
      id,
      id >= 0 ? '' : keyIn(AGENT_KEYS, 'k', agent),
      weights.keyword * (keywordScores[agent]?.score ?? 0),
    );
  }
  return list.view();
}

// One bundle object per word and weight set: routing allocates nothing for words it has seen.
const bundleCache = new WeakMap<FeatureWeights, Map<string, FeatureBundle>>();

/**
 * A word's character n-grams as one cached classifier bundle: at query time they are summed once
 * per word instead of once per query.
 */
export function charGramBundles(
  words: readonly string[],
  weights: FeatureWeights = DEFAULT_FEATURE_WEIGHTS,
): FeatureBundle[] {
  if (weights.char <= 0) return [];
  let byWord = bundleCache.get(weights);
  if (!byWord) bundleCache.set(weights, (byWord = new Map()));
  const bundles: FeatureBundle[] = [];
  for (const word of words) {
    let bundle = byWord.get(word);
    if (!bundle) {
      bundle = {
        key: word,
        features: () => charGrams(word).map((gram) => [gram, weights.char] as const),
        // Present from the start, so every bundle has one shape when the classifier sets them.
        summedBy: undefined,
        summedAt: -1,
      };
      if (byWord.size < KEY_LIMIT) byWord.set(word, bundle);
    }
    bundles.push(bundle);
  }
  return bundles;
}
