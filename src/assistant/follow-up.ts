import { questionSubject } from '../agents/index.js';
import { analyze, QUERY_STOPWORDS, STOPWORDS } from '../retrieval/index.js';
import type { Message } from '../schema/index.js';

/** A pronoun standing for the previous turns' subject. */
const PRONOUN = /\b(it|its|that|this|they|them|those|these)\b/i;
/** Questions that only ask for more of the same ("why?", "tell me more", "an example?"). */
const BARE =
  /^(?:and\s+|so\s+|ok(?:ay)?,?\s+|but\s+)*(?:why|how|more|go on|tell me more|continue|details|an? example|examples|really)\b/i;

/**
 * True when a question with no topic word is still made of words ("and then?", "so what?"): only
 * such a question can lean on the earlier subject. "x", "?" or ".." is no question at all, and
 * answering it as one about the previous subject would hide that from the user.
 */
function madeOfFunctionWords(query: string): boolean {
  const words = query.toLowerCase().match(/[a-z']{2,}/g) ?? [];
  return words.some((word) => STOPWORDS.has(word) || QUERY_STOPWORDS.has(word));
}

/**
 * Most topic words a question leaning on a pronoun may have of its own. "Where is it mounted on the
 * robot?" and "How is it different from SLAM?" lean on the earlier subject; "Is it possible to
 * simulate thermal imaging or event cameras in Isaac?" says all it asks about, and its "it" is
 * the empty subject of "is it possible".
 */
const MAX_FOLLOW_UP_TERMS = 3;
/**
 * A pronoun that is the subject of a wh-question whose few words before it are what is asked
 * about it ("What hardware does it need?", "How much RAM does it take?", "Which GPU can they
 * use?"): it cannot stand for those words (they are its own clause's object), so it stands for
 * an earlier turn's subject.
 */
const PRONOUN_SUBJECT =
  /^(?:what|which|how (?:much|many))(?: [a-z0-9-]+){1,3} (?:does|do|did|is|are|was|were|can|could|will|would|should|might) (?:it|they|this|that|these|those)\b/i;
/** Most words of a bare request for more ("tell me more", "how about an example?"). */
const MAX_BARE_WORDS = 4;
/** Words that open a turn of conversation without being part of the question ("ok but …"). */
const OPENER =
  /^(?:(?:and|so|ok(?:ay)?|but|well|hmm+|right|cool|great|thanks|alright|also)\b[\s,.!]*)+/i;

/**
 * True when a question leans on the earlier turns for its subject: a pronoun with nothing before it
 * that it could stand for ("What does it stand for?"; in "How does the robot know it's tipping
 * over?" it stands for the robot), or a bare request for more ("Why?", "tell me more"; a question
 * that only starts with "how" or "why" asks something of its own).
 */
function leansOnHistory(query: string): boolean {
  const asked = query.trim().replace(OPENER, '');
  const own = analyze(asked, QUERY_STOPWORDS);
  const pronoun = PRONOUN.exec(asked);
  if (
    pronoun !== null &&
    own.length <= MAX_FOLLOW_UP_TERMS &&
    (analyze(asked.slice(0, pronoun.index), QUERY_STOPWORDS).length === 0 ||
      PRONOUN_SUBJECT.test(asked))
  )
    return true;
  // "Why?", "how so?", "more details please"; "How long is the course?" asks about the course.
  if (BARE.test(asked) && own.length <= 1 && asked.split(/\s+/).length <= MAX_BARE_WORDS)
    return true;
  return own.length === 0 && madeOfFunctionWords(query);
}

/** How a follow-up was read. */
export interface FollowUp {
  /** The question with its subject filled in, or the question itself. */
  query: string;
  /** The subject taken from an earlier turn, when one was. */
  subject?: string;
}

/** The subject an earlier question named: its subject phrase, or the question itself. */
function earlierSubject(history: readonly Message[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message?.role !== 'user') continue;
    const subject = questionSubject(message.content);
    if (subject.phrase) return subject.phrase;
    // A follow-up itself ("what does it stand for?", "why is that?") points further back.
    if (leansOnHistory(message.content)) continue;
    if (analyze(message.content, QUERY_STOPWORDS).length > 0)
      return message.content.trim().replace(/[?!.]+$/, '');
  }
  return undefined;
}

/**
 * Reads a follow-up question in the light of the conversation, with no model: a question with no
 * subject of its own ("What does it stand for?", "How is it different from SLAM?", "Why?") takes
 * the subject of the latest earlier question that named one, so that retrieval and routing see
 * "What does VSLAM stand for?". A question that names its own subject is left as it is.
 *
 * @example
 * resolveFollowUp('What does it stand for?', [{ role: 'user', content: 'What is VSLAM?' }]).query;
 * // 'What does VSLAM stand for?'
 */
export function resolveFollowUp(query: string, history: readonly Message[]): FollowUp {
  if (history.length === 0) return { query };
  if (questionSubject(query).phrase || !leansOnHistory(query)) return { query };
  const subject = earlierSubject(history);
  if (!subject) return { query };
  const resolved = PRONOUN.test(query)
    ? query.replace(PRONOUN, (word) => (/^its$/i.test(word) ? `${subject}'s` : subject))
    : `${query.trim()} (about ${subject})`;
  return { query: resolved, subject };
}
