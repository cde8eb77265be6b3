import { stemmer } from 'stemmer';
import { STOPWORDS } from './stopwords.js';
import { figureWithUnit, unitWord } from './units.js';

/** Word characters joined by `.` or `_` stay one token (`g5.2xlarge`, `rqt_graph`, `3.10`). */
const TOKEN = /[a-z0-9]+(?:[._][a-z0-9]+)*/g;
/** "ROS 2", "NAV 2": an upper-case name followed by a lone digit is one name, as in "ROS2". */
const SPACED_VERSION = /\b([A-Z]{2,})\s+(\d)\b(?![.\d])/g;

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
  const normalised = text
    .replace(SPACED_VERSION, '$1$2')
    .toLowerCase()
    .replace(/['’]s\b/g, '');
  for (const match of normalised.matchAll(TOKEN)) {
    const token = match[0];
    const unit = unitWord(token);
    if (unit) {
      out.push(unit);
      continue;
    }
    out.push(token);
    const figure = figureWithUnit(token);
    if (figure) {
      out.push(...figure);
      continue;
    }
    if (token.includes('_') || (token.includes('.') && /[a-z]/.test(token))) {
      for (const part of token.split(/[._]/)) if (part) out.push(part);
    }
  }
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

/**
 * Tokens as the index sees them: tokenized, stopwords dropped, Porter-stemmed.
 *
 * @example
 * analyze('How are the nodes communicating?'); // ['node', 'commun']
 */
export function analyze(text: string, extraStopwords?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    if (STOPWORDS.has(token) || extraStopwords?.has(token)) continue;
    if (token.length === 1 && !/\d/.test(token)) continue;
    out.push(stem(token));
  }
  return out;
}
