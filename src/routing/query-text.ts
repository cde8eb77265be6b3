import { stem } from '../retrieval/index.js';

/** A query (or keyword, or training example) split into normalised words and their stems. */
export interface QueryText {
  /** The text as given. */
  raw: string;
  /** Lowercased, accent-free words; letters and digits are split ("ros2" → "ros", "2"). */
  words: readonly string[];
  /** Porter stems of `words`, index for index. */
  stems: readonly string[];
}

/**
 * Function words: they carry the question's form (kept as classifier features) but say nothing
 * about its topic, so they never count as evidence that a query is on-topic.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if of to in on at by for with from into onto about as is are was were be been ' +
    'being am do does did doing have has had i me my we our you your he she it its they them their this ' +
    'him his her hers ours yours theirs myself ourselves yourself itself themselves ' +
    'that these those there here what whats which who whom whose when where why how can could should ' +
    'would will shall may might must not no yes so than then too very just also any some all each every ' +
    'more most much many other such only own same s t d ll m re ve please pls tell give get got need ' +
    'want like know let make use one two up down out over under again further once ' +
    'something anything everything nothing someone anyone everyone somebody anybody nobody everybody ' +
    'noone somewhere anywhere everywhere nowhere whatever whoever im ive youre'
  ).split(' '),
);

// Routing's own memory of the stems it has asked for: the stemmer's cache also holds every word
// of the indexed corpus, and a lookup in that large table, several per word of every question,
// is most of what stemming costs routing (bounded, so odd input cannot grow it).
const ROUTING_STEMS = new Map<string, string>();
const ROUTING_STEMS_LIMIT = 20_000;

/** The Porter stem of a lowercase word: the retrieval index's cached stemmer, so both agree. */
export function stemWord(word: string): string {
  let stemmed = ROUTING_STEMS.get(word);
  if (stemmed === undefined) {
    stemmed = stem(word);
    if (ROUTING_STEMS.size < ROUTING_STEMS_LIMIT) ROUTING_STEMS.set(word, stemmed);
  }
  return stemmed;
}

/**
 * A text's words as {@link normalizeWords} splits them, shared by everything that reads one
 * question: read them, never change them.
 */
export interface TextWords {
  readonly words: readonly string[];
  /** The words joined by single spaces: the text the question-form patterns read. */
  readonly joined: string;
}

class SplitText implements TextWords {
  constructor(
    readonly words: readonly string[],
    // The text itself lowercased, when it is its words joined by single spaces already.
    private joinedWords: string | undefined,
  ) {}
  get joined(): string {
    return (this.joinedWords ??= this.words.join(' '));
  }
}

// The last texts split, by their text without the separators at its ends: one question is read
// several times (into clauses, for its form, for its words, by the arbiter), and its clause
// "What is a topic" has the words of the question "What is a topic?". Four, so that a question of
// several asks finds its own; too few to hold a previous question's once another is read.
const RECENT_TEXTS = 4;
const recentTexts: Array<{ text: string; core: string; read: SplitText } | undefined> = [];
let recentNext = 0;

/** ASCII characters that end a word and vanish in the split: not letters, digits, ' or `. */
function isEdgeSeparator(code: number): boolean {
  return (
    code < 0x80 &&
    !(code >= 0x30 && code <= 0x39) &&
    !(code >= 0x41 && code <= 0x5a) &&
    !(code >= 0x61 && code <= 0x7a) &&
    code !== APOSTROPHE &&
    code !== BACKTICK
  );
}

/**
 * The words of `text` ({@link normalizeWords}), shared with the other readers of the same text
 * (see {@link TextWords}): the text is split once, and a text that differs from one just read
 * only by separators at its ends ("?", spaces, quotes aside) has the same words.
 *
 * @example
 * textWords('What is a topic?').joined; // 'what is a topic'
 */
export function textWords(text: string): TextWords {
  // The same text read again (the question handed from step to step): found by the text itself,
  // which is the same string, before its core is cut out and compared character by character.
  for (let i = 0; i < recentTexts.length; i += 1) {
    const entry = recentTexts[i];
    if (entry !== undefined && entry.text === text) return entry.read;
  }
  let from = 0;
  let to = text.length;
  while (from < to && isEdgeSeparator(text.charCodeAt(from))) from += 1;
  while (to > from && isEdgeSeparator(text.charCodeAt(to - 1))) to -= 1;
  // A separator ends a word whichever way the text is split, so the core has the same words.
  const core = from === 0 && to === text.length ? text : text.slice(from, to);
  for (let i = 0; i < recentTexts.length; i += 1) {
    const entry = recentTexts[i];
    if (entry === undefined || entry.core !== core) continue;
    // Found by its core ("What is a topic?" after its clause "What is a topic"): the entry now
    // answers to this text itself, which the steps after read again (the question, by analysis
    // and by the arbiter), so those find it without cutting the core out again.
    entry.text = text;
    return entry.read;
  }
  const ascii = asciiWords(core);
  const read = ascii
    ? new SplitText(ascii.words, ascii.joined)
    : new SplitText(unicodeWords(core), undefined);
  recentTexts[recentNext] = { text, core, read };
  recentNext = (recentNext + 1) % RECENT_TEXTS;
  return read;
}

/**
 * Lowercases, strips accents and apostrophes ("what's" → "whats"), splits letters from digits and
 * breaks on everything else.
 */
export function normalizeWords(text: string): string[] {
  return textWords(text).words.slice();
}

// Most queries, and most of a book's passages, are ASCII: one pass over their characters, no
// regex and no copies (asciiWords). Control characters (a passage's line breaks) separate words on
// both ways; only text with a character beyond ASCII needs Unicode's decomposition.
function unicodeWords(text: string): string[] {
  const plain = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return plain
    .toLowerCase()
    .replace(/['\u2019`]/g, '')
    .replace(/([a-z])(?=\d)|(\d)(?=[a-z])/g, '$1$2 ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const APOSTROPHE = 0x27;
const BACKTICK = 0x60;

/**
 * {@link normalizeWords} of ASCII text, without regular expressions: the same words; undefined
 * when the text has a character beyond ASCII (found in the same pass, not by an expression run
 * over the text first). Apostrophes and backticks vanish, every other character that is not a
 * letter or digit ends a word, and a word also ends where letters meet digits ("ros2" → "ros", "2").
 * `joined` is the text lowercased when that is its words joined by single spaces (most asks).
 */
function asciiWords(text: string): { words: string[]; joined: string | undefined } | undefined {
  const lower = text.toLowerCase();
  const words: string[] = [];
  // Whether the text so far is its words joined by single spaces: it starts with a word, and
  // words are set apart by one space and nothing else.
  let plain = true;
  // The current word is `pending` (its part before an apostrophe) plus lower[start, i).
  let pending = '';
  let start = -1;
  // 0 outside a word, 1 in letters, 2 in digits.
  let kind = 0;
  for (let i = 0; i < lower.length; i += 1) {
    // Read in the lowercased text (flat, where the text may be a slice of another, slower to
    // read character by character). The one character beyond ASCII that lowercases into ASCII
    // is the Kelvin sign ("k"), which Unicode's decomposition reads as "K" too: the same words.
    const code = lower.charCodeAt(i);
    if (code >= 0x80) return undefined;
    if (code === APOSTROPHE || code === BACKTICK) {
      if (start >= 0) pending += lower.slice(start, i);
      start = -1;
      plain = false;
      continue;
    }
    const next = code >= 0x61 && code <= 0x7a ? 1 : code >= 0x30 && code <= 0x39 ? 2 : 0;
    if (next !== kind && (start >= 0 || pending !== '')) {
      words.push(start >= 0 ? pending + lower.slice(start, i) : pending);
      pending = '';
      start = -1;
      // Letters meeting digits ("ros2") end a word where no space does.
      if (next !== 0) plain = false;
    }
    if (next === 0) {
      // A separator other than one space between two words.
      if (code !== 0x20 || kind === 0) plain = false;
    } else if (start < 0) start = i;
    kind = next;
  }
  if (start >= 0 || pending !== '') words.push(start >= 0 ? pending + lower.slice(start) : pending);
  return { words, joined: plain && kind !== 0 ? lower : undefined };
}

/**
 * The names a lowercased text writes as letters and digits together ("a100", "go2", "tx2"): the
 * word split ({@link normalizeWords}) cuts them apart, so a book's model and product names are
 * learnt, and looked up, whole. A name is a run of `a-z0-9` that opens with a letter and holds a
 * digit, as `(?<![a-z0-9])[a-z]+\d[a-z0-9]*(?![a-z0-9])` matches them: found in one pass over the
 * characters, where the expression's look-behind was tried at every one (a book's every passage
 * with a digit is read this way when the router learns it).
 *
 * @example
 * gluedNames('the a100 and the g5.2xlarge'); // ['a100', 'g5']
 */
export function gluedNames(lower: string): string[] {
  const names: string[] = [];
  const end = lower.length;
  let i = 0;
  while (i < end) {
    let code = lower.charCodeAt(i);
    const letter = code >= 0x61 && code <= 0x7a;
    if (!letter && !(code >= 0x30 && code <= 0x39)) {
      i += 1;
      continue;
    }
    const start = i;
    let digit = false;
    for (; i < end; i += 1) {
      code = lower.charCodeAt(i);
      if (code >= 0x30 && code <= 0x39) digit = true;
      else if (!(code >= 0x61 && code <= 0x7a)) break;
    }
    if (letter && digit) names.push(lower.slice(start, i));
  }
  return names;
}

/**
 * Normalises and stems `text`.
 *
 * @example
 * analyzeText("How do ROS2 topics work?").stems; // ['how', 'do', 'ros', '2', 'topic', 'work']
 */
export function analyzeText(text: string): QueryText {
  const words = normalizeWords(text);
  return { raw: text, words, stems: words.map(stemWord) };
}

/** The same text with some words replaced (typo corrections), re-stemmed. */
export function withWords(text: QueryText, words: string[]): QueryText {
  return { raw: text.raw, words, stems: words.map(stemWord) };
}

/** True when `word` can say something about a query's topic (not a function word, not a lone digit). */
export function isContentWord(word: string): boolean {
  return word.length > 1 && !STOPWORDS.has(word) && !allDigits(word);
}

// /^\d+$/ without a regular expression (hot: every word of every question).
function allDigits(word: string): boolean {
  if (word.length === 0) return false;
  for (let i = 0; i < word.length; i += 1) {
    const code = word.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}
