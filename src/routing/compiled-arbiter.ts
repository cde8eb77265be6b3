import type { RouteResult } from '../schema/index.js';
import {
  CHAR_GRAM_VALUE,
  UNCOVERED_CAP,
  wordGrams,
  type ArbiterEvidence,
  type ArbiterHeader,
  type RoutingArbiterModel,
} from './arbiter.js';
import { headerOf, packedInMemory, type PackedArbiter } from './packed-arbiter.js';
import { NameTable } from './name-table.js';
import { PairTable } from './pair-table.js';
import { stemWord, textWords } from './query-text.js';
import { rowsWithRoom } from './rows-with-room.js';

/**
 * A fitted arbiter laid out for routing's hot path. A feature is found through maps keyed by the
 * parts of its name (agent, phase, stem…), not by a name built for every question (a new string,
 * hashed on every lookup), and what the model knows of each word (its stem's weights, the pairs it
 * opens, its character n-grams summed) is worked out once per word and kept (bounded, so odd input
 * cannot grow it), in as few objects as possible: in the server, other work between questions
 * evicts the arbiter from the processor's caches, and each object read is then a trip to memory.
 * It adds the same weights in the same order as before this layout, so the logits are the same to
 * the bit; they are those of `arbiterFeatures` + the model's weights (differential test in
 * `arbiter.test.ts`), without building the feature list of every question. A feature is its
 * offset in the packed model's one array of weights, not an array of its own.
 */
export interface CompiledArbiter {
  model: ArbiterHeader;
  /** The logits of each agent, in one array reused by the next call: read them before it. */
  logits(query: string, decision: ArbiterDecision, evidence?: ArbiterEvidence): Float64Array;
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
 * (`f=`) and of its character n-grams summed, side by side in one row of the kept words' one
 * array; `has` says which are there ({@link HAS_WORD}, {@link HAS_FIRST}, {@link HAS_GRAMS}).
 */
export interface ArbiterWord {
  stem: string;
  has: number;
  /**
   * Where its row starts in `own`: `w=<stem>`, `f=<stem>` and the n-grams' weights, one
   * agent-wide slot each.
   */
  at: number;
  /** The array holding its row: null for the kept words' one array (which grows). */
  own: Float64Array | null;
  /**
   * The stem's number among the parts of pair names (`b=<a>_<b>`, `f2=<a>_<b>`), by which a pair
   * of words is found in a {@link PairTable}; -1 when the stem is in no pair.
   */
  part: number;
  /**
   * The number of its stem's `w=` feature, by which the stem is counted once a question; -1 when
   * the stem has none.
   */
  stemSerial: number;
}
/**
 * A place on the caller's own record of a word where an arbiter keeps its {@link ArbiterWord}
 * (the router's word records are such places): found with the record the caller already holds,
 * instead of by a lookup of the word in the arbiter's table on every route (in the server, a
 * lookup and the table's memory cost more than the rest of reading the word). `arbiterOf` is the
 * arbiter that wrote it: another arbiter reading the same records looks the word up as before.
 */
export interface ArbiterSlot {
  arbiterOf: object | undefined;
  arbiterWord: ArbiterWord | undefined;
}

const HAS_WORD = 1;
const HAS_FIRST = 2;
const HAS_GRAMS = 4;

/**
 * Calls `file(a, b, at)` for every feature named `<prefix><a><separator><b>` (`at` the offset of
 * its weights), once for every split at the separator, so that looking up (a, b) among what was
 * filed finds exactly the feature named `<prefix><a><separator><b>`, whatever the parts hold.
 */
function eachSplit(
  groups: FeatureGroups,
  prefix: string,
  separator: string,
  file: (a: string, b: string, at: number) => void,
): void {
  for (const [rest, at] of groups.get(prefix) ?? []) {
    for (
      let split = rest.indexOf(separator);
      split >= 0;
      split = rest.indexOf(separator, split + 1)
    )
      file(rest.slice(0, split), rest.slice(split + separator.length), at);
  }
}

/**
 * The features named `<prefix><a><separator><b>` (see {@link eachSplit}), by `a` then `b`, each
 * as `of` makes it from the offset of its weights.
 */
function byNames(
  groups: FeatureGroups,
  prefix: string,
  separator: string,
  of: (at: number) => number,
): Map<string, Map<string, number>> {
  const parts = new Map<string, Map<string, number>>();
  eachSplit(groups, prefix, separator, (a, b, at) => {
    let inner = parts.get(a);
    if (!inner) parts.set(a, (inner = new Map()));
    inner.set(b, of(at));
  });
  return parts;
}

/**
 * The features named `<prefix><a><separator><b>` (see {@link eachSplit}) in a table by the
 * numbers of `a` and `b` in `parts` (numbered here as they come), each as `of` makes it from the
 * offset of its weights.
 */
function byParts(
  groups: FeatureGroups,
  prefix: string,
  separator: string,
  parts: Map<string, number>,
  of: (at: number) => number,
): PairTable {
  const partOf = (part: string): number => {
    let id = parts.get(part);
    if (id === undefined) parts.set(part, (id = parts.size));
    return id;
  };
  const table = new PairTable();
  eachSplit(groups, prefix, separator, (a, b, at) => table.set(partOf(a), partOf(b), of(at)));
  return table;
}

/** The features named `<prefix><rest>`, by `rest`, each as `of` makes it from its offset. */
function byRest<T>(groups: FeatureGroups, prefix: string, of: (at: number) => T): Map<string, T> {
  const rests = new Map<string, T>();
  for (const [rest, at] of groups.get(prefix) ?? []) rests.set(rest, of(at));
  return rests;
}

/**
 * The features by the prefix of their name up to its first `=` (`w=`, `b=`, `rp=`), each as its
 * name's rest and the offset of its weights, in the model's order. Read once: each table above
 * takes one prefix's features, where scanning all 9,000 names for each of fifteen prefixes was
 * most of the compile (160 of 220 ms of a cold process's first, at load 6).
 */
type FeatureGroups = ReadonlyMap<string, ReadonlyArray<readonly [rest: string, at: number]>>;

function featureGroups(offsets: ReadonlyMap<string, number>): FeatureGroups {
  const groups = new Map<string, [string, number][]>();
  for (const [name, at] of offsets) {
    const end = name.indexOf('=') + 1;
    if (end === 0) continue;
    const prefix = name.slice(0, end);
    let group = groups.get(prefix);
    if (!group) groups.set(prefix, (group = []));
    group.push([name.slice(end), at]);
  }
  return groups;
}

const itself = (at: number) => at;

/** Maps of maps by name as {@link NameTable}s of them. */
const nameTables = (
  byName: ReadonlyMap<string, ReadonlyMap<string, number>>,
): NameTable<NameTable<number>> =>
  new NameTable(new Map([...byName].map(([name, inner]) => [name, new NameTable(inner)])));

/**
 * Lays a model out for routing (see {@link CompiledArbiter}): a packed one as read from its file,
 * or a table of feature name → weights as fitted (packed first).
 */
export function compileArbiter(model: PackedArbiter | RoutingArbiterModel): CompiledArbiter {
  const packed = 'features' in model ? model : packedInMemory(model);
  const header = headerOf(packed);
  const width = header.agents.length;
  const bias = Float64Array.from(header.bias);
  // Every feature's weights, feature after feature; a feature is found by its offset.
  const table = packed.weights;
  const offsets = new Map<string, number>();
  packed.features.forEach((name, i) => offsets.set(name, i * width));
  const groups = featureGroups(offsets);
  // The weights every question may read (the rule decision's and the evidence's features, and
  // the pairs of first words), copied side by side into one small array: they are read by their
  // offsets there, a few dozen rows in a few kilobytes, instead of rows scattered over the whole
  // table, each on a cache line of its own that the rest of routing has evicted.
  let fixed = new Float64Array(128 * width);
  let fixedUsed = 0;
  const fixedAt = new Map<number, number>();
  const fixedOf = (at: number): number => {
    let copy = fixedAt.get(at);
    if (copy === undefined) {
      fixed = rowsWithRoom(fixed, fixedUsed, width);
      copy = fixedUsed;
      fixed.set(table.subarray(at, at + width), copy);
      fixedUsed += width;
      fixedAt.set(at, copy);
    }
    return copy;
  };
  const fixedNamed = (name: string): number | undefined => {
    const at = offsets.get(name);
    return at === undefined ? undefined : fixedOf(at);
  };
  // The rule decision's features by agent, phase and intent, each among a handful of names.
  const ruled = new NameTable(byRest(groups, 'r=', fixedOf));
  const phases = new NameTable(byRest(groups, 'p=', fixedOf));
  const ruledPhases = nameTables(byNames(groups, 'rp=', '|', fixedOf));
  const intents = new NameTable(byRest(groups, 'i=', fixedOf));
  const confidences = new NameTable(byRest(groups, 'c=', fixedOf));
  const off = fixedNamed('off');
  const scores = nameTables(byNames(groups, 's=', '|', fixedOf));
  const stems = byRest(groups, 'w=', itself);
  // Each `w=` stem's number, and the question it was last counted in (a stem counts once a
  // question): one array read per word instead of comparing its stem with each word before it.
  const stemSerials = new Map<string, number>();
  for (const stem of stems.keys()) stemSerials.set(stem, stemSerials.size);
  const stemCountedIn = new Float64Array(stemSerials.size);
  const firsts = byRest(groups, 'f=', itself);
  // The stems that are parts of pair names, numbered.
  const parts = new Map<string, number>();
  const firstPairs = byParts(groups, 'f2=', '_', parts, fixedOf);
  // Every pair's weights in one array, each after the number of the question it was last counted
  // in (a pair counts once a question), found by its offset.
  const pairFeatures = groups.get('b=') ?? [];
  const pairStore = new Float64Array(pairFeatures.length * (width + 1)).fill(-1);
  const pairAt = new Map<number, number>();
  pairFeatures.forEach(([, at], i) => {
    pairStore.set(table.subarray(at, at + width), i * (width + 1) + 1);
    pairAt.set(at, i * (width + 1));
  });
  const pairs = byParts(groups, 'b=', '_', parts, (at) => pairAt.get(at)!);

  // The `width` weights from `table[at]` on, times `value`, added to `total`.
  const addFromTable = (total: Float64Array, at: number, value: number) => {
    for (let k = 0; k < width; k += 1) total[k]! += table[at + k]! * value;
  };
  // The `width` weights from `fixed[at]` on, times `value`, added to the logits.
  const add = (logits: Float64Array, at: number | undefined, value: number) => {
    if (at === undefined) return;
    for (let k = 0; k < width; k += 1) logits[k]! += fixed[at + k]! * value;
  };
  // The `width` weights from `store[from]` on, added to the logits (times 1, as `add` does).
  const addFrom = (logits: Float64Array, store: Float64Array, from: number) => {
    for (let k = 0; k < width; k += 1) logits[k]! += store[from + k]! * 1;
  };
  // One word's 3- and 4-grams' weights summed into `total`; false when none has a weight.
  const sumGrams = (word: string, total: Float64Array): boolean => {
    let any = false;
    for (const [gram, count] of wordGrams(word)) {
      const at = offsets.get(gram);
      if (at === undefined) continue;
      any = true;
      addFromTable(total, at, CHAR_GRAM_VALUE * count);
    }
    return any;
  };
  const words = new Map<string, ArbiterWord>();
  // The rows of the kept words that have weights, one after another (see ArbiterWord), and the
  // length of them.
  const rowLength = 3 * width;
  let rows = new Float64Array(256 * rowLength);
  let rowsUsed = 0;
  const row = new Float64Array(rowLength);
  const wordOf = (word: string): ArbiterWord => {
    let known = words.get(word);
    if (known) return known;
    const stem = stemWord(word);
    row.fill(0);
    let has = 0;
    const stemAt = stems.get(stem);
    if (stemAt !== undefined) {
      has |= HAS_WORD;
      row.set(table.subarray(stemAt, stemAt + width), 0);
    }
    const firstAt = firsts.get(stem);
    if (firstAt !== undefined) {
      has |= HAS_FIRST;
      row.set(table.subarray(firstAt, firstAt + width), width);
    }
    // Summed in place from zeros, as into a fresh array: the same sums.
    if (header.charGrams && sumGrams(word, row.subarray(2 * width))) has |= HAS_GRAMS;
    const kept = words.size < WORD_CACHE_LIMIT;
    // A word without weights has no row (none is read); a word not kept has its own.
    let at = 0;
    let own: Float64Array | null = null;
    if (has !== 0 && kept) {
      rows = rowsWithRoom(rows, rowsUsed, rowLength);
      at = rowsUsed;
      rows.set(row, at);
      rowsUsed += rowLength;
    } else if (has !== 0) {
      own = row.slice();
    }
    known = {
      stem,
      has,
      at,
      own,
      part: parts.get(stem) ?? -1,
      stemSerial: has & HAS_WORD ? stemSerials.get(stem)! : -1,
    };
    if (kept) words.set(word, known);
    return known;
  };
  // The evidence's features (evidenceFeatures names them), found by agent or domain rather than
  // by a name built for every question; added in evidenceFeatures' order, so the sums are the same.
  const groundingScore = fixedNamed('gs');
  const groundingTogether = fixedNamed('gt');
  const uncovered = Array.from({ length: UNCOVERED_CAP + 1 }, (_, n) => fixedNamed(`gu=${n}`));
  const named = fixedNamed('gn');
  const namesOnly = fixedNamed('go');
  const unjudged = fixedNamed('gj0');
  const domainShares = new NameTable(byRest(groups, 'gd=', fixedOf));
  const keywordScores = new NameTable(byRest(groups, 'k=', fixedOf));
  const probabilities = new NameTable(byRest(groups, 'q=', fixedOf));
  const onTopic = fixedNamed('on');
  const addEvidence = (logits: Float64Array, evidence: ArbiterEvidence) => {
    const g = evidence.grounding;
    if (g) {
      add(logits, groundingScore, g.score);
      add(logits, groundingTogether, g.together);
      add(logits, uncovered[Math.min(g.uncovered.length, UNCOVERED_CAP)], 1);
      if (g.named) add(logits, named, 1);
      if (g.namesOnly) add(logits, namesOnly, 1);
      if (!g.judged) add(logits, unjudged, 1);
      for (const domain in g.domainShares)
        add(logits, domainShares.get(domain), g.domainShares[domain]!);
    }
    for (const agent in evidence.keywords) {
      const score = evidence.keywords[agent]!.score;
      if (score !== 0) add(logits, keywordScores.get(agent), score);
    }
    if (evidence.ranked)
      for (const { label, probability } of evidence.ranked)
        add(logits, probabilities.get(label), probability);
    else
      for (const agent in evidence.probabilities)
        add(logits, probabilities.get(agent), evidence.probabilities[agent]!);
    if (evidence.onTopic) add(logits, onTopic, 1);
  };
  // The question being read, numbered so that a pair is counted once in it.
  let question = 0;
  // The question's words (the first `recordCount` entries), and its logits. Reused: routing is
  // synchronous. A count rather than emptying the list: setting an array's length is a call
  // into the engine, and gives back the storage of a list that had grown.
  const records: ArbiterWord[] = [];
  let recordCount = 0;
  const logits = new Float64Array(width);
  // This arbiter, as the slots it writes name it.
  const self = {};
  return {
    model: header,
    logits(query, decision, evidence) {
      // A loop, not `set` (a call into the engine for a handful of agents).
      for (let k = 0; k < width; k += 1) logits[k] = bias[k]!;
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
      recordCount = 0;
      question += 1;
      const words = textWords(query).words;
      // The caller's slots, when it split the same text (the same words array): its record of
      // each word, index for index.
      const slots = evidence?.words === words ? evidence.slots : undefined;
      for (let i = 0; i < words.length; i += 1) {
        const slot = slots?.[i];
        let record: ArbiterWord;
        if (slot !== undefined && slot.arbiterOf === self) {
          record = slot.arbiterWord!;
        } else {
          record = wordOf(words[i]!);
          if (slot !== undefined) {
            slot.arbiterOf = self;
            slot.arbiterWord = record;
          }
        }
        const at = recordCount;
        if (record.has & HAS_WORD && stemCountedIn[record.stemSerial] !== question) {
          stemCountedIn[record.stemSerial] = question;
          addFrom(logits, record.own ?? rows, record.at);
        }
        const before = at > 0 ? records[at - 1]!.part : -1;
        const pair = before >= 0 && record.part >= 0 ? pairs.get(before, record.part) : -1;
        if (pair >= 0 && pairStore[pair] !== question) {
          pairStore[pair] = question;
          addFrom(logits, pairStore, pair + 1);
        }
        records[recordCount++] = record;
      }
      const first = recordCount > 0 ? records[0] : undefined;
      const second = recordCount > 1 ? records[1] : undefined;
      if (first && first.has & HAS_FIRST) addFrom(logits, first.own ?? rows, first.at + width);
      if (first && second && first.part >= 0 && second.part >= 0) {
        const at = firstPairs.get(first.part, second.part);
        if (at >= 0) add(logits, at, 1);
      }
      for (let i = 0; i < recordCount; i += 1) {
        const record = records[i]!;
        if (record.has & HAS_GRAMS) addFrom(logits, record.own ?? rows, record.at + 2 * width);
      }
      if (evidence) addEvidence(logits, evidence);
      return logits;
    },
  };
}
