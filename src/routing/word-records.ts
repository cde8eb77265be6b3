import type { FeatureBundle } from './intent-classifier.js';
import type { WordFacts } from './subject-grounding.js';

/**
 * Everything one routing model needs to know of one query word, whatever the question it is in:
 * its stem, the keyword it may be a typo of, the word it is read as, whether it says anything
 * about a topic and whether training saw it, its character n-grams and its grounding facts. Found
 * with one lookup per word instead of one lookup per fact in a table of its own (a dozen tables
 * and more per word): in the server the HTTP work between routes evicts those tables from the
 * processor's caches, and each lookup then costs a trip to memory.
 */
export interface WordRecord {
  /** The word as split from the question (lowercase). */
  readonly word: string;
  /** Its stem (`stemWord`). */
  readonly stem: string;
  /** The keyword stem it is a typo of (`keywordTypo`), if any. */
  readonly keywordTypo: string | undefined;
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
}

/** How each fact of a word is worked out (the model's own tables and functions). */
export interface WordRecordSources {
  stem(word: string): string;
  keywordTypo(word: string, stem: string): string | undefined;
  /** The word it is read as (itself unless it is a typo). */
  readAs(word: string): string;
  content(word: string): boolean;
  known(stem: string): boolean;
  bundle(word: string): FeatureBundle | undefined;
  facts(word: string, stem: string): WordFacts | undefined;
}

/** Words whose records are kept; beyond it records are built each time (odd input cannot grow it). */
export const WORD_RECORD_LIMIT = 20_000;

/**
 * A bounded memory of word records over `sources`: a record is built the first time its word is
 * asked for, and the same record is given from then on.
 *
 * @example
 * const recordOf = wordRecords(sources);
 * recordOf('capston').meant.word; // 'capstone'
 */
export function wordRecords(sources: WordRecordSources): (word: string) => WordRecord {
  const records = new Map<string, WordRecord>();
  const build = (word: string, meant: WordRecord | undefined): WordRecord => {
    const stem = sources.stem(word);
    const record: { -readonly [K in keyof WordRecord]: WordRecord[K] } = {
      word,
      stem,
      keywordTypo: sources.keywordTypo(word, stem),
      meant: undefined as unknown as WordRecord,
      content: sources.content(word),
      known: sources.known(stem),
      bundle: sources.bundle(word),
      facts: sources.facts(word, stem),
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
  return (word) => recordOf(word);
}
