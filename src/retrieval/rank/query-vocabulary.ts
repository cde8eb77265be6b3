import type { ChunkRecord } from '../../schema/index.js';
import { mineInitialisms, type InitialismMap } from './acronyms.js';
import { createFuzzyLexicon, type FuzzyLexicon } from './fuzzy-lexicon.js';
import { QUERY_STOPWORDS, STOPWORDS } from './stopwords.js';
import { stem, tokenize } from './tokenizer.js';
import { CARDINAL_NUMBERS, ORDINAL_NUMBERS } from './number-words.js';

/** One query word read as the book writes it: `from` (as typed, lower case) → `to`. */
export type VocabularyRepair = readonly [from: string, to: string];

/** What a query became once its words were read in the book's own spelling. */
export interface RepairedQuery {
  /** The query with each repaired word replaced; the query itself when nothing changed. */
  text: string;
  repairs: VocabularyRepair[];
}

/** What the repair asks of the rest of the ranker. */
export interface QueryVocabularySources {
  /** True when the index holds `term` (a stemmed token). */
  indexed(term: string): boolean;
  /**
   * WordNet's synonyms of `word` (lower case), or undefined when WordNet does not know the word:
   * a correction is made only for a word English does not know (a typo) or onto a synonym
   * (a spelling variant, "optimisation" → "optimization"), never from one English word onto another.
   */
  synonyms(word: string): readonly string[] | undefined;
}

/** Maps query words the book never uses onto the book's own spelling of them. */
export interface QueryVocabulary {
  repair(query: string): RepairedQuery;
}

/** A word, where it sits in the query, and whether the book uses it (see `known`). */
interface Word {
  text: string;
  start: number;
  end: number;
  known: boolean;
}

/**
 * A word, letters beyond A to Z included: "Fußball" and "Schrödinger" are one word each, none of
 * whose pieces ("fu", "dinger") is a word to read as a term's initials or a typo.
 */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** Longest word read as an initialism (the book's terms are read up to six words long). */
const MAX_INITIALISM_LENGTH = 6;
/** Shortest word English does not know that is read as a typo of a book word. */
const MIN_TYPO_LENGTH = 6;
/**
 * Words of one query that may be looked up as typos of book words, in the order they come; later
 * words the book does not use are taken as typed, so 2,000 characters of made-up words cost
 * about what a question does (the same budget as routing's speller, `FUZZY_WORDS_PER_QUESTION`).
 */
export const REPAIRS_LOOKED_UP_PER_QUERY = 24;
/** Words whose "is it the book's" answer is kept (odd input cannot grow it past this). */
const KNOWN_CACHE_LIMIT = 20_000;
/** A name written with a capital inside ("iCloud", "YouTube"): never a typo of a book word. */
const INNER_CAPITAL = /^[A-Za-z][a-z]*[A-Z]/;

/**
 * English words typed for another right after a question word: "how dose the arm…" means "does".
 * Only there: "a dose of" is the word itself, and so is "what dose" or "which dose" (a noun is
 * what English puts after those: "What dose of syrup…").
 */
const SLIPS: ReadonlyMap<string, string> = new Map([['dose', 'does']]);
const QUESTION_WORDS = new Set(['how', 'why', 'where', 'when', 'who']);
/**
 * Words that start the subject "does" asks about ("how does it…", "why does the arm…"): after
 * "when" or "how", "dose" before anything else is the noun ("when dose is doubled").
 */
const SUBJECT_STARTS = new Set(
  (
    'i you he she it we they one the a an this that these those my your his her its our their ' +
    'each every any some no all both either neither'
  ).split(' '),
);
/** "dose" typed right after a question word: a slip when the next word starts a subject. */
const slipCandidate = (words: readonly Word[], i: number): boolean =>
  SLIPS.has(words[i]!.text) && QUESTION_WORDS.has(words[i - 1]?.text ?? '');

// The particles of phrasal verbs whose noun the book writes closed up ("set up" / "setup",
// "shut down" / "shutdown", "roll out" / "rollout"): the verb and its particle are both words the
// book uses, but its headings name the thing in the closed form ("Installation and Setup").
const PARTICLES = new Set(['up', 'down', 'out', 'off']);
/**
 * The word meant by the slip at `i`, when the word after it starts a subject: a pronoun, an
 * article or a possessive, a name the query writes with a capital (while the slip is in lower
 * case), or one the book writes with a capital ("how dose gazebo…" when the book writes Gazebo).
 */
const slipAt = (
  query: string,
  words: readonly Word[],
  i: number,
  names: ReadonlySet<string>,
): string | undefined => {
  if (!slipCandidate(words, i)) return undefined;
  const word = words[i]!;
  const next = words[i + 1];
  if (!next) return undefined;
  const capital = (at: Word) => /[A-Z]/.test(query[at.start] ?? '');
  const subject =
    SUBJECT_STARTS.has(next.text) || (capital(next) && !capital(word)) || names.has(next.text);
  return subject ? SLIPS.get(word.text) : undefined;
};

/**
 * Chat shorthand, never read as a book term's initialism however its letters fall ("idk what a
 * topic is" is not a question about some "Isaac Development Kit").
 */
const CHAT_SHORTHAND = new Set(
  (
    'lol idk imo imho tbh btw ngl fyi asap pls plz thx ty np omg brb afaik iirc tldr lmk irl smh ' +
    'rn wtf bc cuz ofc ikr ftw jk nvm gg ok okay ur'
  ).split(' '),
);
/**
 * Short forms everyone writes that WordNet does not list (screens, files, hardware, programming,
 * work): a reader who types "HD", "TS" or "RC" means what everyone means, not a book's "Hierarchical
 * Decomposition", "Temporal Synchronization" or "Robust Control", however its bold lists are named.
 */
const EVERYDAY_SHORT_FORMS = new Set(
  (
    'hd uhd fhd sd hdd ssd psu pcb mcu soc rc diy eta faq pm hr hrs min mins sec secs ' +
    'js ts py cpp sql pg db vm ide cli gui api sdk npm tdd bdd oop ci cd pr qa ux ui os pc tv ' +
    'ac dc usb lan wan tcp udp http https ssh ftp dns url pdf png jpg csv xml json yaml html css ' +
    'iot st cb uk us eu usa'
  ).split(' '),
);
/**
 * The function words a lower-case initialism may be a slip for ("dof" for "of"): those of letters
 * only, at most one longer than an initialism (see `initialismAt`).
 */
const SLIP_TARGETS = [...STOPWORDS].filter(
  (word) => /^[a-z]+$/.test(word) && word.length <= MAX_INITIALISM_LENGTH + 1,
);
/** A joiner and a word character just before a word, or just after it (see `initialismAt`). */
const GLUED = /[A-Za-z0-9][-._/]$/;
const GLUED_AFTER = /^[-._/][A-Za-z0-9]/;

/**
 * The book term `typed` abbreviates, when it is one: a word the book and English never use ("DOF"
 * for the book's "degrees of freedom", "cpgs" for "central pattern generators"). Typed in lower
 * case, a word one edit from a function word is taken for its slip instead ("dof" may be "of").
 */
function initialismAt(
  query: string,
  word: Word,
  read: BookWords,
  english: (word: string) => readonly string[] | undefined,
): string | undefined {
  const text = word.text;
  if (
    text.length < 2 ||
    text.length > MAX_INITIALISM_LENGTH ||
    CHAT_SHORTHAND.has(text) ||
    EVERYDAY_SHORT_FORMS.has(text) ||
    (text.endsWith('s') && EVERYDAY_SHORT_FORMS.has(text.slice(0, -1)))
  )
    return undefined;
  // Part of a name joined by a hyphen, dot or underscore ("HC-SR04", "tf.tsc"): not a term's
  // initials.
  if (
    GLUED.test(query.slice(Math.max(0, word.start - 2), word.start)) ||
    GLUED_AFTER.test(query.slice(word.end, word.end + 2))
  )
    return undefined;
  const longForm =
    read.initialisms.get(text) ??
    (text.length > 3 && text.endsWith('s') ? read.initialisms.get(text.slice(0, -1)) : undefined);
  if (longForm === undefined || english(text) !== undefined) return undefined;
  const capitals = query.slice(word.start, word.end).replace(/[^A-Z]/g, '').length;
  if (capitals < 2 && SLIP_TARGETS.some((function_) => oneEditApart(text, function_)))
    return undefined;
  return longForm;
}

/** A word the book numbers: "Week 7", "Phase 3:". */
const NUMBERED = /\b([a-z]{3,}) \d{1,2}\b/g;
/** "seven" and "seventh" → "7": how a book numbers its weeks, phases and parts. */
const NUMBERS: ReadonlyMap<string, string> = new Map(
  [...CARDINAL_NUMBERS, ...ORDINAL_NUMBERS].map(
    ([word, number]) => [word, String(number)] as const,
  ),
);
/** A hyphenated compound of the book ("Mid-term", "real-time", "Sim-to-Real"). */
const HYPHENATED = /\b[a-z]+(?:-[a-z]+)+\b/g;

/**
 * True when `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours: the
 * lexicon's deletion index also pairs words that lost a letter at different places ("later",
 * "after"), two edits apart.
 */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const left = a.slice(start, endA);
  const right = b.slice(start, endB);
  if (left.length + right.length <= 1) return true;
  if (left.length === 1 && right.length === 1) return true;
  return left.length === 2 && right.length === 2 && left[0] === right[1] && left[1] === right[0];
}

/**
 * True when `typed` and `book` are one English spelling in two conventions, one edit apart:
 * s/z and s/c ("optimisation", "practise"), a dropped u ("behaviour"), a doubled consonant
 * ("modelling"), a swapped -re/-er ("centre").
 */
export function spellingVariant(typed: string, book: string): boolean {
  let start = 0;
  while (start < typed.length && typed[start] === book[start]) start++;
  const a = typed.slice(start);
  const b = book.slice(start);
  if (a.length === b.length) {
    const pair = `${a[0]}${b[0]}`;
    if (a.slice(1) === b.slice(1)) return ['sz', 'zs', 'sc', 'cs'].includes(pair);
    return a.startsWith('re') && b.startsWith('er') && a.slice(2) === b.slice(2);
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  if (longer.slice(1) !== shorter) return false;
  const dropped = longer[0] as string;
  const before = (longer === a ? typed : book)[start - 1];
  return (dropped === 'u' && before === 'o') || (dropped === before && !'aeiou'.includes(dropped));
}

/** The book's surface words (letters only, with counts) and its hyphenated compounds by joined form. */
interface BookWords {
  lexicon: FuzzyLexicon;
  /** Each token of the book, with how often it occurs. */
  words: ReadonlyMap<string, number>;
  /** "midterm" → "mid term": compounds the book writes with hyphens, by their closed form. */
  compounds: ReadonlyMap<string, string>;
  /** Words the book numbers in digits ("Week 7", "Phase 3"): "week", "phase". */
  numbered: ReadonlySet<string>;
  /**
   * Names: words the book writes with a capital inside a sentence more often than without
   * ("Gazebo", "ROS"), in lower case.
   */
  names: ReadonlySet<string>;
  /** "dof" → "degrees of freedom": the terms the book names, by their initialisms. */
  initialisms: InitialismMap;
}

/**
 * A word of running text, with what comes before it when that starts a sentence (a stop, a line,
 * a list mark): a capital there is not a name's.
 */
const TEXT_WORD = /((?:^|[.!?:\n])\s*(?:[-*>#]+\s*|\d+\.\s+)?)?([A-Za-z][A-Za-z0-9]*)/g;

function readBookWords(chunks: readonly ChunkRecord[]): BookWords {
  const counts = new Map<string, number>();
  const compounds = new Map<string, string>();
  const numbered = new Set<string>();
  const capitalised = new Map<string, number>();
  for (const chunk of chunks) {
    for (const [, sentenceStart, word] of chunk.text.matchAll(TEXT_WORD)) {
      if (sentenceStart !== undefined) continue;
      const lower = (word as string).toLowerCase();
      const by = /[A-Z]/.test((word as string)[0] as string) ? 1 : -1;
      capitalised.set(lower, (capitalised.get(lower) ?? 0) + by);
    }
    const text = `${chunk.title}\n${chunk.headingPath.join('\n')}\n${chunk.text}`;
    for (const token of tokenize(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
    const lower = text.toLowerCase();
    for (const match of lower.matchAll(HYPHENATED)) {
      const parts = match[0].split('-');
      compounds.set(parts.join(''), parts.join(' '));
    }
    for (const match of lower.matchAll(NUMBERED))
      if (!STOPWORDS.has(match[1] as string)) numbered.add(match[1] as string);
  }
  // A closed form the book also uses is a word of its own, not a compound to split.
  for (const closed of compounds.keys()) if (counts.has(closed)) compounds.delete(closed);
  const letters = [...counts].filter(([word]) => /^[a-z]+$/.test(word));
  return {
    lexicon: createFuzzyLexicon([], letters),
    words: counts,
    compounds,
    numbered,
    names: new Set([...capitalised].filter(([, lead]) => lead > 0).map(([word]) => word)),
    initialisms: mineInitialisms(chunks),
  };
}

/**
 * Reads a query's words in the book's spelling, so a word the index never saw still finds the
 * passages that use it. Only words the book does not use are touched (a word the book uses is
 * never changed), in five ways, first match wins:
 *
 * 1. two neighbouring words, split by a space or a hyphen, that the book writes closed up and of
 *    which one is not the book's ("work station", "pre-emptible", "Nav 2" → `workstation`,
 *    `preemptible`, `nav2`), or the second a phrasal verb's particle ("set up" → `setup`);
 * 2. a closed compound the book writes with a hyphen ("midterm", "realtime" → "mid term",
 *    "real time", the tokens the index holds for "Mid-term" and "Real-time");
 * 3. a number word beside a word the book numbers in digits ("week seven", "the third phase"
 *    → "week 7", "the 3 phase");
 * 4. a word neither the book nor English uses, of two to six letters, that is the initialism of a
 *    term the book names in bold or in a heading ("DOF" → "degrees of freedom", "cpgs" →
 *    "central pattern generators"; see `mineInitialisms`), unless it is chat shorthand ("idk") or,
 *    typed in lower case, one edit from a function word ("dof" may be a slip for "of");
 * 5. a word one edit away from a book word (insertion, deletion, substitution or swap, the
 *    routing speller's {@link createFuzzyLexicon}), when English does not know it and it has six
 *    letters or more (a typo: "diffrence", "continous"; not a name written as one, "iCloud") or
 *    English knows it as a synonym of the book's word in the other spelling convention (a
 *    spelling variant: "optimisation" → "optimization", "modelling" → "modeling"); only the
 *    first {@link REPAIRS_LOOKED_UP_PER_QUERY} such words of a query are looked up.
 *
 * The book's words are read from the chunks once, on the first query that has a word to repair.
 *
 * @example
 * const vocabulary = createQueryVocabulary(chunks, sources);
 * vocabulary.repair('whats on the midterm?').text; // 'whats on the mid term?'
 */
export function createQueryVocabulary(
  chunks: readonly ChunkRecord[],
  sources: QueryVocabularySources,
): QueryVocabulary {
  let book: BookWords | undefined;
  // Whether a word is the book's does not change for this index: worked out once per word (a
  // stem and an index lookup), since routing reads every question here.
  const knownWords = new Map<string, boolean>();
  const known = (word: string) => {
    let answer = knownWords.get(word);
    if (answer === undefined) {
      answer = STOPWORDS.has(word) || QUERY_STOPWORDS.has(word) || sources.indexed(stem(word));
      if (knownWords.size < KNOWN_CACHE_LIMIT) knownWords.set(word, answer);
    }
    return answer;
  };

  // `lookUp` false: within the query's budget of fuzzy lookups no more (see
  // REPAIRS_LOOKED_UP_PER_QUERY), so only a compound is read.
  const correction = (word: string, words: BookWords, lookUp: boolean): string | undefined => {
    const compound = words.compounds.get(word);
    if (compound) return compound;
    if (!lookUp) return undefined;
    const meant = words.lexicon.correct(word);
    if (meant === undefined || meant === word || !oneEditApart(word, meant)) return undefined;
    const synonyms = sources.synonyms(word);
    // A word English does not know is a typo only when long enough to place: WordNet lists no
    // function words, and "whose" is one edit from the book's "whole".
    if (synonyms === undefined) return word.length >= MIN_TYPO_LENGTH ? meant : undefined;
    return spellingVariant(word, meant) && synonyms.includes(meant) ? meant : undefined;
  };

  return {
    repair(query) {
      // Whether each word is the book's is worked out once (a stem and an index lookup): routing
      // reads every question here, on `POST /route`'s hot path.
      const words: Word[] = [...query.matchAll(WORD)].map((match) => {
        const text = match[0].toLowerCase();
        // The end as typed: lower case may change a word's length ("İ" is two characters).
        return { text, start: match.index, end: match.index + match[0].length, known: known(text) };
      });
      if (
        words.every(
          (word, i) => word.known && !slipCandidate(words, i) && !PARTICLES.has(word.text),
        )
      )
        return { text: query, repairs: [] };
      const read = (book ??= readBookWords(chunks));
      const repairs: VocabularyRepair[] = [];
      let lookups = 0;
      let text = '';
      let from = 0;
      const replace = (start: number, end: number, typed: string, meant: string) => {
        text += query.slice(from, start) + meant;
        from = end;
        repairs.push([typed, meant]);
      };
      for (let i = 0; i < words.length; i++) {
        const word = words[i] as Word;
        const next = words[i + 1];
        if (
          next &&
          /^[\s-]$/.test(query.slice(word.end, next.start)) &&
          (!word.known || !next.known || PARTICLES.has(next.text)) &&
          read.words.has(word.text + next.text)
        ) {
          replace(
            word.start,
            next.end,
            query.slice(word.start, next.end).toLowerCase(),
            word.text + next.text,
          );
          i += 1;
          continue;
        }
        const slip = slipAt(query, words, i, read.names);
        if (slip !== undefined) {
          replace(word.start, word.end, word.text, slip);
          continue;
        }
        if (word.known || !/^[a-z]+$/.test(word.text)) continue;
        // Within the query's budget, a word is looked up once, as an initialism and as a typo.
        const lookUp = lookups < REPAIRS_LOOKED_UP_PER_QUERY;
        lookups += 1;
        // Before the names: an initialism is often typed in capitals ("DOF").
        const longForm = lookUp ? initialismAt(query, word, read, sources.synonyms) : undefined;
        if (longForm !== undefined) {
          replace(word.start, word.end, word.text, longForm);
          continue;
        }
        if (INNER_CAPITAL.test(query.slice(word.start, word.end))) continue;
        // "week seven", "the seventh week": only beside a word the book numbers in digits.
        const number = NUMBERS.get(word.text);
        if (number !== undefined) {
          const beside = [words[i - 1]?.text, next?.text];
          if (beside.some((w) => w !== undefined && read.numbered.has(w)))
            replace(word.start, word.end, word.text, number);
          continue;
        }
        const meant = correction(word.text, read, lookUp);
        if (meant) replace(word.start, word.end, word.text, meant);
      }
      return repairs.length
        ? { text: text + query.slice(from), repairs }
        : { text: query, repairs };
    },
  };
}
