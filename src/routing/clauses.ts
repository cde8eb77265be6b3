import { englishDictionary } from './english-dictionary.js';
import { textWords, type TextWords } from './query-text.js';

/** One clause of a question: its text, and whether it asks something (or only gives context). */
export interface Clause {
  text: string;
  /** True for a question or a request ("…, and what does X mean?"); false for context ("I never took a controls class."). */
  ask: boolean;
}

/** A clause needs this many words to stand as a question of its own ("or why?" does not). */
export const MIN_CLAUSE_WORDS = 3;

// Where a new clause starts: end of a sentence, ";", or "…, and what…" / "… or should…". No
// leading `\s*`: the spaces before a break are trimmed off the clause anyway, and without it a
// match is looked for from a break's first character only (a fifth less time per question; the
// same clauses on every eval question and on random text). "… and who wrote this book?" asks
// again; ", also" starts one only before a question word or a request ("…, also what is a
// costmap?"), not before a thing ("I have a Jetson, also a camera"); "… cant agree who does
// perception and who does control" names two jobs inside one ask,
// and ", who is …," after a noun is a relative clause ("My advisor, who is a roboticist, says…").
const CLAUSE_BREAK =
  /(?:[;?!]+|\.\s+|,\s*(?:and|but|or|then|plus)\s+|,\s*also\s+(?=(?:why|how|what|whats|which|where|when|who|should|could|can|does|do|is|are|explain|define|describe|tell|list|show|give|compare)\b)|,\s+(?=(?:why|how|what|which|where|should|could|can|does|do|is|are)\b)|\s+(?:\+\s+|(?:and|but|or)\s+(?=(?:why|how|what|which|where|when|who (?:is|are|was|were|wrote|made|created|published|maintains|teaches)|should|could|can|does|do|is|are|explain|define|describe|tell|list|show|give|compare|upgrade|buy|get|whats)\b)))\s*/gi;

// A clause that opens like a question or a request asks something, whatever its punctuation.
// "When"/"where" ask only before a verb ("When is it due?"); "When I run the launch file, …" sets
// the scene for the question after the comma.
// A preposition may lead the question word ("Into how many stages…", "In which week…"), and an
// aside may open it ("…, and by the way what does X stand for?").
const ASKING =
  /^(?:so |and |but |or |then |also |ok |hey |sorry )?(?:by the way |btw |one more thing |oh |plus )?(?:(?:in|into|on|for|from|to|at|by|with|of|after|before) (?=how|what|which|whom|whose))?(?:(?:when|where) (?:is|are|was|were|do|does|did|will|would|can|could|should|shall|has|have|must|am)\b|what|whats|how|why|which|who|whos|whom|whose|is|are|am|was|were|can|could|should|would|will|do|does|did|have|has|explain|define|describe|list|compare|tell|give|show|walk|recommend|suggest|help)\b/;

// Openings that set the scene rather than ask, whatever word follows: "We're reading chapter 9
// this week." (normalised, "we're" would read as the question word "were"), "If I split the bill,
// …", "Before our robot touches hardware, …". A clause ending in "?" still asks.
const CONTEXT_OPENING =
  /^\s*(?:(?:we|you|they)['’]re|if|before|after|while|once|since|because|although|though|unless|until|between|whenever)\b/i;

// The one word that makes a two-word clause a whole ask for a term: "What's X?", "Define X".
const TERM_ASKS = new Set(['whats', 'wats', 'define']);

/**
 * True when a clause too short to stand alone is still a whole ask for a term after context:
 * "Reading the VSLAM chapter. What's relocalization?" asks what relocalization is, and joined
 * to the context before it, it no longer opened like a definition (it went to the fallback).
 */
function asksForATerm(asks: boolean, words: TextWords, previous: Clause): boolean {
  if (!asks || previous.ask || words.words.length !== 2 || !TERM_ASKS.has(words.words[0]!))
    return false;
  // A term is a noun or a word English does not know ("relocalization", "com"): "The Go2 is
  // expensive. What's cheaper?" and "Finished chapter 2. What's after?" ask about the context
  // (an outside review found them read as terms).
  const word = englishDictionary().lookup(words.words[1]!);
  return word.lemma === undefined || word.nounShare >= MIN_TERM_NOUN_SHARE;
}

// Words that only lead into the next ask ("Define VSLAM. Also, what are the milestones?"): a
// clause made of them alone opens the clause after it, not the end of the one before it.
const LEAD_INS = new Set([
  'also',
  'and',
  'plus',
  'btw',
  'oh',
  'ok',
  'okay',
  'so',
  'then',
  'lastly',
  'finally',
  'additionally',
  'besides',
  'moreover',
  'next',
  'second',
  'secondly',
  'ps',
  'one',
  'more',
  'thing',
  'by',
  'the',
  'way',
]);

/** True when a clause only leads into the next one ("Also", "Oh, and", "One more thing"). */
const onlyLeadsIn = (words: TextWords): boolean =>
  words.words.length > 0 && words.words.every((word) => LEAD_INS.has(word));

// A break that adds one ask to another ("…; and what's an A10G?", "…, then define DOF", "… + which
// GPU…"), not one that qualifies it ("Sorry if this is basic, but…") or sets the scene (". ").
const ADDING_BREAK = /^(?:\s*;\s*(?:and|also|plus|then)\b|,\s*(?:and|then|plus|also)\b|\s+\+\s)/i;

// Openings of a sentence about the asker or what was just said ("My PC has…", "It crashes…",
// "hm", "right"), which state context rather than name what is asked.
const STATEMENT_OPENING = new Set([
  'i',
  'im',
  'ive',
  'id',
  'my',
  'me',
  'we',
  'were',
  'our',
  'us',
  'you',
  'your',
  'it',
  'its',
  'this',
  'that',
  'they',
  'their',
  'he',
  'she',
  'his',
  'her',
  'there',
  'here',
  'sorry',
  'right',
  'fine',
  'ok',
  'okay',
  'so',
  'well',
  'yes',
  'no',
  'thanks',
]);

/**
 * True when a clause that does not open like a question is still a terse ask (R10's "Isaac
 * hardware requirements", "Capstone milestones"): it is added to an ask after it ("Price of a
 * g5.xlarge per hour; and what's an A10G?", "G1 vs H1 payload, then define degrees of freedom"),
 * or to another terse ask by "+" ("capstone team roles + cloud GPU cost"). Read as context, its
 * subject was lost to the ask after it, which then decided the primary agent alone.
 */
function isTerseAsk(clause: Clause, breakAfter: string, next: Clause): boolean {
  if (clause.ask || !ADDING_BREAK.test(`${breakAfter}${next.text}`)) return false;
  if (!isTerse(clause)) return false;
  return next.ask || (/\+/.test(breakAfter) && isTerse(next));
}

/**
 * A clause opened by a word English uses mostly as a verb ("Split utils.py into modules", "Convert
 * the callbacks") is a request in a sentence of its own, not a terse ask naming a thing ("Price
 * of…", "Typical power draw of…", "Cost of reserved instances…").
 */
const MIN_NAMING_NOUN_SHARE = 0.4;

/** True when a clause names what it asks in a few words, not as a statement ("capstone team roles"). */
function isTerse(clause: Clause): boolean {
  if (CONTEXT_OPENING.test(clause.text)) return false;
  const words = textWords(clause.text).words;
  if (words.length < MIN_CLAUSE_WORDS || STATEMENT_OPENING.has(words[0]!)) return false;
  const first = englishDictionary().lookup(words[0]!);
  return first.lemma === undefined || first.nounShare >= MIN_NAMING_NOUN_SHARE;
}

/** How much of a word's English use must be as a noun for "What's X?" to ask for a term. */
const MIN_TERM_NOUN_SHARE = 0.75;

/**
 * Splits a question into clauses where a new ask starts and marks which clauses ask something: a
 * clause ending in "?" or opening like a question or a request ("explain…", "compare…"). Clauses of fewer than {@link MIN_CLAUSE_WORDS} words join the clause before them.
 *
 * @example
 * splitClauses('How do URDF joints work, and what does revolute mean?');
 * // [{ text: 'How do URDF joints work', ask: true }, { text: 'what does revolute mean', ask: true }]
 */
export function splitClauses(query: string): Clause[] {
  const clauses: Clause[] = [];
  // The break after each clause, by position in `clauses` (read by `isTerseAsk`).
  const breaks: string[] = [];
  let start = 0;
  let leadIn = '';
  const push = (end: number, separator: string) => {
    const own = query.slice(start, end).trim();
    if (own === '') return;
    const text = leadIn === '' ? own : `${leadIn} ${own}`;
    const words = textWords(text);
    if (end < query.length && words.words.length < MIN_CLAUSE_WORDS && onlyLeadsIn(words)) {
      leadIn = text;
      return;
    }
    leadIn = '';
    const asks =
      separator.includes('?') || (!CONTEXT_OPENING.test(text) && ASKING.test(words.joined));
    const previous = clauses[clauses.length - 1];
    if (words.words.length < MIN_CLAUSE_WORDS && previous && !asksForATerm(asks, words, previous)) {
      previous.text = `${previous.text} ${text}`;
      previous.ask ||= asks;
      breaks[clauses.length - 1] = separator;
      return;
    }
    clauses.push({ text, ask: asks });
    breaks.push(separator);
  };
  // `exec` on the one global expression rather than `matchAll`, which makes a copy of the
  // expression and an iterator for every question: the same matches, in the same order.
  CLAUSE_BREAK.lastIndex = 0;
  for (let match = CLAUSE_BREAK.exec(query); match; match = CLAUSE_BREAK.exec(query)) {
    push(match.index, match[0]);
    start = match.index + match[0].length;
    // As matchAll does, an empty match moves on a character (none of the breaks is empty).
    if (match[0] === '') CLAUSE_BREAK.lastIndex += 1;
  }
  push(query.length, '');
  for (let i = clauses.length - 2; i >= 0; i -= 1)
    if (isTerseAsk(clauses[i]!, breaks[i]!, clauses[i + 1]!)) {
      // Both sides of "+" ask: "capstone success metrics + cloud GPU hourly cost".
      if (/\+/.test(breaks[i]!)) clauses[i + 1]!.ask = true;
      clauses[i]!.ask = true;
    }
  return clauses;
}

// Pronouns by which an ask points back at what the context before it named.
const POINTING_BACK = new Set([
  'it',
  'its',
  'that',
  'this',
  'they',
  'them',
  'their',
  'those',
  'these',
  'one',
]);

/**
 * True when an ask points back at what the context before it named ("My PC has a GTX 1060, can
 * it handle the sim?"): its subject is then partly the context's.
 *
 * @example
 * pointsBack('can it handle the sim'); // true
 */
export const pointsBack = (text: string): boolean =>
  textWords(text).words.some((word) => POINTING_BACK.has(word));
