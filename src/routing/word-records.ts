import type { ArbiterSlot } from './compiled-arbiter.js';
import type { FeatureBundle } from './intent-classifier.js';
import type { CompiledKeyword } from './keyword-scorer.js';
import type { StemKeys } from './query-features.js';
import type { WordFacts } from './subject-grounding.js';

/**
 * Everything one routing model needs to know of one query word, whatever the question it is in:
 * its stem, the keyword it may be a typo of, the word it is read as, whether it says anything
 * about a topic and whether training saw it, its character n-grams and its grounding facts. Found
 * with one lookup per word instead of one lookup per fact in a table of its own (a dozen tables
 * and more per word): in the server the HTTP work between routes evicts those tables from the
 * processor's caches, and each lookup then costs a trip to memory. The routing arbiter keeps what
 * it knows of the word on it too ({@link ArbiterSlot}, written on first use).
 */
export interface WordRecord extends ArbiterSlot {
  /** The word as split from the question (lowercase). */
  readonly word: string;
  /** Its stem (`stemWord`). */
  readonly stem: string;
  /** The keyword stem it is a typo of (`keywordTypo`), if any. */
  readonly keywordTypo: string | undefined;
  /** The keyword phrases that may start at it: those of its keyword typo, else of its stem. */
  readonly keywords: readonly CompiledKeyword[] | undefined;
  /** Its stem's classifier feature keys (`keysOf`). */
  readonly keys: StemKeys;
  /** The record of the word it is read as: itself unless it is a typo ("capston" → "capstone"). */
  readonly meant: WordRecord;
  /** It can say something about a topic (`isContentWord`). */
  readonly content: boolean;
  /** Training saw its stem as a word feature (the classifier knows `w:stem`). */
  readonly known: boolean;
  /** Its character n-grams as one classifier bundle; undefined when they weigh nothing. */
  readonly bundle: FeatureBundle | undefined;
  /** What grounding needs of it; undefined without book knowledge. */
  readonly facts: WordFacts | undefined;
  /**
   * Reading it takes a fuzzy lookup (a word no lexicon or English knows, long enough to be a
   * typo): a question has a budget of these ({@link FUZZY_WORDS_PER_QUESTION}).
   */
  readonly spelled: boolean;
}

/** How each fact of a word is worked out (the model's own tables and functions). */
export interface WordRecordSources {
  stem(word: string): string;
  keywordTypo(word: string, stem: string): string | undefined;
  /** The keyword phrases whose first stem is `stem`. */
  keywords(stem: string): readonly CompiledKeyword[] | undefined;
  keys(stem: string): StemKeys;
  /** The word it is read as (itself unless it is a typo). */
  readAs(word: string): string;
  content(word: string): boolean;
  known(stem: string): boolean;
  bundle(word: string): FeatureBundle | undefined;
  facts(word: string, stem: string): WordFacts | undefined;
  /** True when reading `word` takes a fuzzy lookup (see {@link WordRecord.spelled}). */
  spelled(word: string): boolean;
}

/**
 * Words of one question that are looked up as possible typos, in the order they come; later
 * words no lexicon knows are taken as typed. A question of 2,000 characters of made-up words
 * would otherwise cost a fuzzy lookup per word (12-25 ms on `POST /route`); no question of the
 * eval sets has more than a handful of such words.
 */
export const FUZZY_WORDS_PER_QUESTION = 24;

/** Words whose records are kept; beyond it records are built each time (odd input cannot grow it). */
export const WORD_RECORD_LIMIT = 20_000;

/**
 * A word's records: `recordOf(word)` as it is read, or with `spell` false as typed, without a
 * fuzzy lookup (the same record when reading it takes none).
 */
export type RecordOf = (word: string, spell?: boolean) => WordRecord;

/**
 * A bounded memory of word records over `sources`: a record is built the first time its word is
 * asked for, and the same record is given from then on.
 *
 * @example
 * const recordOf = wordRecords(sources);
 * recordOf('capston').meant.word; // 'capstone'
 * recordOf('capston', false).meant.word; // 'capston' (taken as typed)
 */
export function wordRecords(sources: WordRecordSources): RecordOf {
  const records = new Map<string, WordRecord>();
  // Words taken as typed, past a question's budget of fuzzy lookups.
  const typed = new Map<string, WordRecord>();
  const build = (word: string, meant: WordRecord | undefined, spell = true): WordRecord => {
    const stem = sources.stem(word);
    const spelled = sources.spelled(word);
    const keywordTypo = spell || !spelled ? sources.keywordTypo(word, stem) : undefined;
    const record: { -readonly [K in keyof WordRecord]: WordRecord[K] } = {
      word,
      stem,
      keywordTypo,
      keywords: sources.keywords(keywordTypo ?? stem),
      keys: sources.keys(stem),
      meant: undefined as unknown as WordRecord,
      content: sources.content(word),
      known: sources.known(stem),
      bundle: sources.bundle(word),
      facts: sources.facts(word, stem),
      spelled,
      arbiterOf: undefined,
      arbiterWord: undefined,
    };
    record.meant = meant ?? record;
    return record;
  };
  // `asMeant`: the record is wanted as the word a typo is read as. Reading goes one step only: a
  // word read as another that is itself read as something else is then taken as it is, and that
  // record (whose `meant` is not what reading the word gives) is not kept.
  const recordOf = (word: string, asMeant = false): WordRecord => {
    let record = records.get(word);
    if (record !== undefined) return record;
    const readAs = sources.readAs(word);
    if (asMeant && readAs !== word) return build(word, undefined);
    record = build(word, readAs === word ? undefined : recordOf(readAs, true));
    if (records.size < WORD_RECORD_LIMIT) records.set(word, record);
    return record;
  };
  return (word, spell = true) => {
    if (spell) return recordOf(word);
    // A record read without a fuzzy lookup, or one whose lookups found nothing, is the word as
    // typed already.
    const kept = records.get(word);
    if (kept !== undefined && (!kept.spelled || (kept.meant === kept && !kept.keywordTypo)))
      return kept;
    if (kept === undefined && !sources.spelled(word)) return recordOf(word);
    let plain = typed.get(word);
    if (plain === undefined) {
      plain = build(word, undefined, false);
      if (typed.size < WORD_RECORD_LIMIT) typed.set(word, plain);
    }
    return plain;
  };
}
