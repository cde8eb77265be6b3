import { stemmer } from 'stemmer';
import { STOPWORDS } from './stopwords.js';
import { figureWithUnit, unitWord } from './units.js';

/** "ROS 2", "NAV 2": an upper-case name followed by a lone digit is one name, as in "ROS2". */
const SPACED_VERSION = /\b([A-Z]{2,})\s+(\d)\b(?![.\d])/g;

/** The text as tokens are read from it: "ROS 2" closed up, lower-cased, possessive "'s" dropped. */
function normalised(text: string): string {
  return text
    .replace(SPACED_VERSION, '$1$2')
    .toLowerCase()
    .replace(/['’]s\b/g, '');
}

const isWordCode = (code: number) =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);

/**
 * Calls `visit` with each token of `text` (lower-cased), in order, and whether it is letters only:
 * a run of `a-z0-9`, word characters joined by `.` or `_` staying one token (`g5.2xlarge`,
 * `rqt_graph`, `3.10`), as the expression `[a-z0-9]+(?:[._][a-z0-9]+)*` matches them. A scan of the characters
 * instead of the expression's match objects: every passage of a book is read this way when its
 * index is built.
 */
function eachToken(text: string, visit: (token: string, lettersOnly: boolean) => void): void {
  const end = text.length;
  let i = 0;
  while (i < end) {
    if (!isWordCode(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const start = i;
    let lettersOnly = true;
    for (;;) {
      let code = text.charCodeAt(i);
      while (i < end && isWordCode(code)) {
        if (code < 0x61) lettersOnly = false;
        code = text.charCodeAt(++i);
      }
      // A joiner continues the token only when a word character follows it.
      if ((code === 0x2e || code === 0x5f) && i + 1 < end && isWordCode(text.charCodeAt(i + 1))) {
        lettersOnly = false;
        i += 1;
        continue;
      }
      break;
    }
    visit(text.slice(start, i), lettersOnly);
  }
}

/** Appends what one token of the text stands for: itself, or its unit, figure and parts. */
function pushToken(token: string, out: string[]): void {
  const unit = unitWord(token);
  if (unit) {
    out.push(unit);
    return;
  }
  out.push(token);
  const figure = figureWithUnit(token);
  if (figure) {
    out.push(...figure);
    return;
  }
  if (token.includes('_') || (token.includes('.') && /[a-z]/.test(token))) {
    for (const part of token.split(/[._]/)) if (part) out.push(part);
  }
}

/**
 * Splits text into lower-case tokens. Compound tokens (`rqt_graph`, `g5.2xlarge`) are kept whole and
 * also split into their parts, so a query for either form matches; "ROS 2" becomes `ros2`. A unit
 * is one token however it is spelled (`units.ts`): "16 gigs" and "32GB" both give `gigabyte`.
 *
 * @example
 * tokenize('Run rqt_graph on ROS 2'); // ['run', 'rqt_graph', 'rqt', 'graph', 'on', 'ros2']
 * tokenize('32GB, or 16 gigs'); // ['32gb', '32', 'gigabyte', 'or', '16', 'gigabyte']
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  eachToken(normalised(text), (token) => pushToken(token, out));
  return out;
}

const stemCache = new Map<string, string>();

/** Porter stem of a token; tokens with digits or joiners are identifiers and stay as they are. */
export function stem(token: string): string {
  let stemmed = stemCache.get(token);
  if (stemmed === undefined) {
    stemmed = /^[a-z]+$/.test(token) ? stemmer(token) : token;
    if (stemCache.size < 200_000) stemCache.set(token, stemmed);
  }
  return stemmed;
}

/** A token as the index keeps it (stemmed), or undefined when it is dropped. */
function indexedTerm(token: string, extraStopwords?: ReadonlySet<string>): string | undefined {
  if (STOPWORDS.has(token) || extraStopwords?.has(token)) return undefined;
  if (token.length === 1 && !/\d/.test(token)) return undefined;
  return stem(token);
}

// What a word of letters alone analyses to ('' when dropped): such a word is one token (itself or
// its unit), so one lookup stands for the unit's, the stopword's and the stem's.
const analysedWords = new Map<string, string>();

/**
 * Tokens as the index sees them: tokenized, stopwords dropped, Porter-stemmed.
 *
 * @example
 * analyze('How are the nodes communicating?'); // ['node', 'commun']
 */
export function analyze(text: string, extraStopwords?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const parts: string[] = [];
  eachToken(normalised(text), (token, lettersOnly) => {
    if (lettersOnly && !extraStopwords) {
      let term = analysedWords.get(token);
      if (term === undefined) {
        term = indexedTerm(unitWord(token) ?? token) ?? '';
        if (analysedWords.size < 200_000) analysedWords.set(token, term);
      }
      if (term !== '') out.push(term);
      return;
    }
    parts.length = 0;
    pushToken(token, parts);
    for (const part of parts) {
      const term = indexedTerm(part, extraStopwords);
      if (term !== undefined) out.push(term);
    }
  });
  return out;
}
