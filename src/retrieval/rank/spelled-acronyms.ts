import type { ChunkRecord } from '../../schema/index.js';
import { SMALL_WORDS, type AcronymMap } from './acronyms.js';
import { QUERY_STOPWORDS, STOPWORDS } from './stopwords.js';
import { stem } from './tokenizer.js';

/** An acronym a question spells out: "end of life" for the corpus's "EOL". */
export interface SpelledAcronym {
  /** The acronym, lower case, as the corpus writes it ("eol", "qos"). */
  acronym: string;
  /** The question's words it shortens, lower case, one space apart ("end of life"). */
  phrase: string;
  /** The phrase's last word: the concept the acronym stands for ("life"). */
  last: string;
}

/** What {@link createSpelledAcronyms} reads of the corpus and of English. */
export interface SpelledAcronymSources {
  /** The chunks holding `term` (a stemmed token), in the index's numbering; empty when none. */
  chunksWith(term: string): ArrayLike<number>;
  /**
   * WordNet's synonyms of `word`, or undefined when WordNet does not know it: an English word is
   * read as an acronym only for the phrase WordNet lists it as ("cpu" for "central processing
   * unit"), never from any phrase its letters begin ("set", "run", "all" are words).
   */
  english(word: string): readonly string[] | undefined;
  /** The acronyms the corpus defines ("Quality of Service (QoS)"): `mineAcronyms`. */
  defined: AcronymMap;
}

/** Shortest and longest acronym read from a phrase: two letters are nobody's in particular. */
const MIN_LETTERS = 3;
const MAX_LETTERS = 6;
/** A phrase is read over at most this many words, small words included ("end of the life"). */
const MAX_PHRASE_WORDS = 6;
/** Articles an acronym never takes a letter from ("Hardware-in-the-Loop" is HIL). */
const ARTICLES = new Set(['a', 'an', 'the']);
/** A word of a question, as {@link phrasesOf} reads it: letters, or letters and digits. */
const QUESTION_WORD = /[a-z0-9]+/g;
/** What may join two words of one phrase: spaces, a hyphen, a slash ("end-of-life"). */
const JOINER = /^[\s\-/\u2010-\u2015]+$/;
/**
 * A use written as an acronym: two capitals or more ("EOL", "QoS", "RTPS"); "Eol" or "eol" is a
 * word or a name.
 */
const ACRONYM_CASE = /^[A-Z][A-Za-z]*[A-Z]/;
/** An acronym must be written so in more than this share of its uses, and at least twice. */
const ACRONYM_CASE_SHARE = 0.5;
const MIN_ACRONYM_USES = 2;
/** Chunks read for how the corpus writes a word ("ROS" is in thousands): enough to tell. */
const CHUNKS_READ = 200;
/** Chunks read for whether the corpus writes a phrase: those holding its rarest word. */
const PHRASE_CHUNKS_READ = 500;
/** Words whose answer is kept (odd input cannot grow it past this). */
const CACHE_LIMIT = 5_000;

/**
 * The runs of a question's words an acronym may shorten, with the initialisms each spells: runs of
 * two to six words that start and end with a word of substance (not a function word nor a word of
 * how questions ask), joined only by spaces, hyphens or slashes, with small words inside ("of",
 * "and", "for") that give their letter or none, as acronyms take them ("end of life" is EOL,
 * "quality of service" QoS, "Windows Subsystem for Linux" WSL) and articles that give none.
 *
 * @example
 * phrasesOf('When does Humble reach end of life?');
 * // [..., { phrase: 'end of life', initialisms: ['eol', 'el'], last: 'life' }]
 */
export function phrasesOf(
  query: string,
): { phrase: string; initialisms: string[]; last: string }[] {
  const words = [
    ...query
      .toLowerCase()
      .replace(/['’]s\b/g, '')
      .matchAll(QUESTION_WORD),
  ].map((match) => ({ text: match[0], start: match.index, end: match.index + match[0].length }));
  const substance = (word: string) =>
    /^[a-z]+$/.test(word) && !STOPWORDS.has(word) && !QUERY_STOPWORDS.has(word);
  const phrases: { phrase: string; initialisms: string[]; last: string }[] = [];
  for (let first = 0; first < words.length; first++) {
    if (!substance(words[first]!.text)) continue;
    let letters = new Set(['']);
    let content = 0;
    for (let at = first; at < words.length && at - first < MAX_PHRASE_WORDS; at++) {
      const word = words[at]!;
      if (at > first && !JOINER.test(query.slice(words[at - 1]!.end, word.start))) break;
      const small = SMALL_WORDS.has(word.text);
      if (!small && !substance(word.text)) break;
      const initial = word.text[0]!;
      const next = new Set<string>();
      for (const spelled of letters) {
        if (!small || !ARTICLES.has(word.text)) next.add(spelled + initial);
        if (small) next.add(spelled);
      }
      letters = next;
      if (small) continue;
      content += 1;
      if (content < 2) continue;
      const initialisms = [...letters].filter(
        (spelled) => spelled.length >= MIN_LETTERS && spelled.length <= MAX_LETTERS,
      );
      if (initialisms.length === 0) continue;
      const phrase = words
        .slice(first, at + 1)
        .map((w) => w.text)
        .join(' ');
      phrases.push({ phrase, initialisms, last: word.text });
    }
  }
  return phrases;
}

/**
 * Finds the acronyms a question spells out, so a question in plain words finds the passages that
 * only write the short form: "When does Humble reach end of life?" over docs whose table says "EOL
 * date". An initialism of a run of the question's words (see {@link phrasesOf}) counts when the
 * corpus writes it as an acronym, in capitals (two or more) in most of its uses and at least
 * twice, and it is not an English word (WordNet) unless WordNet lists it for this very phrase, nor
 * an acronym the corpus defines for another phrase ("VLA" is the textbook's vision-language-action,
 * whatever "very large arrays" spells), and the corpus writes the phrase too, somewhere ("End-of-Life
 * Distributions", a link to "Application_binary_interface"): a term of the corpus, where "real
 * time issues" is words a question put together, whose initials are the vendor RTI's. An acronym the corpus defines for this phrase is
 * `expandAcronyms`' already. How the corpus writes a word is read from the chunks that hold it, on
 * the first question that spells it, and kept.
 *
 * @example
 * const spelled = createSpelledAcronyms(chunks, sources);
 * spelled('When does Humble reach end of life?'); // [{ acronym: 'eol', phrase: 'end of life', last: 'life' }]
 */
export function createSpelledAcronyms(
  chunks: readonly ChunkRecord[],
  sources: SpelledAcronymSources,
): (query: string) => SpelledAcronym[] {
  const remembered = (answers: Map<string, boolean>, find: (key: string) => boolean) => {
    return (key: string): boolean => {
      let answer = answers.get(key);
      if (answer === undefined) {
        answer = find(key);
        if (answers.size < CACHE_LIMIT) answers.set(key, answer);
      }
      return answer;
    };
  };
  const writtenAsAcronym = remembered(new Map(), (word) =>
    countsAsAcronym(word, chunks, sources.chunksWith(stem(word))),
  );
  const writesPhrase = remembered(new Map(), (phrase) => phraseWritten(phrase, chunks, sources));
  return (query) => {
    const found: SpelledAcronym[] = [];
    for (const { phrase, initialisms, last } of phrasesOf(query)) {
      for (const acronym of initialisms) {
        if (STOPWORDS.has(acronym) || found.some((f) => f.acronym === acronym)) continue;
        const defined =
          sources.defined.get(acronym) ?? sources.defined.get(acronym.replace(/s$/, ''));
        if (defined !== undefined) continue;
        // Most initialisms of a question's phrases are no word of the corpus: one postings lookup
        // rules them out before WordNet is asked or any chunk is read.
        if (sources.chunksWith(stem(acronym)).length === 0) continue;
        const english = sources.english(acronym);
        if (english !== undefined && !english.includes(phrase)) continue;
        if (!writtenAsAcronym(acronym) || !writesPhrase(phrase)) continue;
        found.push({ acronym, phrase, last });
      }
    }
    return found;
  };
}

/**
 * True when the corpus writes `word` as an acronym: in capitals in more than
 * {@link ACRONYM_CASE_SHARE} of its uses in the first {@link CHUNKS_READ} chunks holding it, and
 * at least {@link MIN_ACRONYM_USES} times ("QoS", "EOL"; not "set", written "SET" in a few shell
 * lines).
 */
function countsAsAcronym(
  word: string,
  chunks: readonly ChunkRecord[],
  holding: ArrayLike<number>,
): boolean {
  if (holding.length === 0) return false;
  const use = new RegExp(`(?<![A-Za-z0-9_])${word}s?(?![A-Za-z0-9_])`, 'gi');
  let capitals = 0;
  let uses = 0;
  for (let i = 0; i < Math.min(holding.length, CHUNKS_READ); i++) {
    const chunk = chunks[holding[i]!];
    if (!chunk) continue;
    for (const text of [chunk.title, ...chunk.headingPath, chunk.text]) {
      for (const match of text.matchAll(use)) {
        uses += 1;
        if (ACRONYM_CASE.test(match[0])) capitals += 1;
      }
    }
  }
  return capitals >= MIN_ACRONYM_USES && capitals > ACRONYM_CASE_SHARE * uses;
}

/**
 * True when the corpus writes `phrase` (its words in a row, joined by spaces, hyphens, slashes or
 * underscores, a final "s" either way): read in the chunks holding its rarest word.
 */
function phraseWritten(
  phrase: string,
  chunks: readonly ChunkRecord[],
  sources: Pick<SpelledAcronymSources, 'chunksWith'>,
): boolean {
  const words = phrase.split(' ');
  let holding: ArrayLike<number> | undefined;
  for (const word of words) {
    if (SMALL_WORDS.has(word)) continue;
    const chunksWith = sources.chunksWith(stem(word));
    if (holding === undefined || chunksWith.length < holding.length) holding = chunksWith;
  }
  if (!holding || holding.length === 0) return false;
  const written = new RegExp(
    `(?<![A-Za-z0-9])${words.map((word) => `${word.replace(/s$/, '')}s?`).join('[\\s\\-_/\u2010-\u2015]+')}(?![A-Za-z0-9])`,
    'i',
  );
  for (let i = 0; i < Math.min(holding.length, PHRASE_CHUNKS_READ); i++) {
    const chunk = chunks[holding[i]!];
    if (chunk && [chunk.title, ...chunk.headingPath, chunk.text].some((text) => written.test(text)))
      return true;
  }
  return false;
}
