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

/**
 * A follow-up that names a new subject and asks of it what the earlier question asked ("and an
 * action?", "what about services?", "how about the Nano?"): the capture is the new subject.
 */
const ELLIPSIS =
  /^(?:(?:ok(?:ay)?|so|and|but)[\s,]+)*(?:and|what about|how about|what of|same for|and for)\s+((?:(?:a|an|the)\s+)?[\w+.-]+(?:\s+[\w+.-]+){0,3})\s*[?.!]*$/i;
/** A name, the context a term is asked in: "ROS 2", "Isaac Sim", "NVIDIA Jetson". */
const NAME = /^(?:[A-Z][\w.-]*|\d+)(?:\s+(?:[A-Z][\w.-]*|\d+))*$/;
/** Words that cannot make up the whole of a new subject ("and then?", "what about it?"). */
const NO_SUBJECT =
  /^(?:then|now|it|that|this|them|those|these|so|why|how|more|you|me|us|yes|no|ok|okay)$/i;

/**
 * The earlier question asked again of a new subject: "What is a ROS 2 topic?" then "and an
 * action?" reads "What is an action?". Undefined unless `query` is such an ellipsis and the latest
 * earlier question that named a subject wrote it out.
 */
function askedAgainOf(query: string, history: readonly Message[]): FollowUp | undefined {
  const match = ELLIPSIS.exec(query.trim());
  const subject = match?.[1]?.trim();
  if (!subject || NO_SUBJECT.test(subject)) return undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message?.role !== 'user') continue;
    const { phrase: earlier, head } = questionSubject(message.content);
    if (!earlier) continue;
    // "a ROS 2 topic" then "and an action?": the name before the head is the context the new
    // subject is asked in ("a ROS 2 action"); a common word before it is part of the old term
    // ("a joint limit" then "and an action?" asks of an action, not of a "joint action").
    const context = head && earlier.endsWith(head) ? earlier.slice(0, -head.length).trim() : '';
    const noun = subject.replace(/^(?:a|an|the)\s+/i, '');
    const inContext = NAME.test(context) && noun === noun.toLowerCase();
    const replaced = inContext ? head! : earlier;
    // The replaced words with the article before them, replaced whole by the new subject's.
    const escaped = replaced.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const written = new RegExp(
      inContext ? `\\b${escaped}\\b` : `(?:\\b(?:a|an|the)\\s+)?${escaped}`,
      'i',
    );
    if (!written.test(message.content)) return undefined;
    const asked = message.content.trim().replace(written, () => (inContext ? noun : subject));
    return { query: asked, subject: earlier };
  }
  return undefined;
}

/** How a follow-up was read. */
export interface FollowUp {
  /** The question with its subject filled in, or the question itself. */
  query: string;
  /**
   * The subject taken from an earlier turn, when one was; for an earlier question asked again of a
   * new subject ("and an action?"), the earlier subject the new one replaced.
   */
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
  const again = askedAgainOf(query, history);
  if (again) return again;
  if (questionSubject(query).phrase || !leansOnHistory(query)) return { query };
  const subject = earlierSubject(history);
  if (!subject) return { query };
  const resolved = PRONOUN.test(query)
    ? query.replace(PRONOUN, (word) => (/^its$/i.test(word) ? `${subject}'s` : subject))
    : `${query.trim()} (about ${subject})`;
  return { query: resolved, subject };
}
