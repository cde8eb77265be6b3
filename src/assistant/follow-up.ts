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
    if (subject.pronoun || PRONOUN.test(message.content) || BARE.test(message.content.trim()))
      continue;
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
  const own = questionSubject(query);
  if (own.phrase) return { query };
  const hasPronoun = PRONOUN.test(query);
  const bare =
    BARE.test(query.trim()) ||
    (analyze(query, QUERY_STOPWORDS).length === 0 && madeOfFunctionWords(query));
  if (!own.pronoun && !hasPronoun && !bare) return { query };
  const subject = earlierSubject(history);
  if (!subject) return { query };
  const resolved = hasPronoun
    ? query.replace(PRONOUN, (word) => (/^its$/i.test(word) ? `${subject}'s` : subject))
    : `${query.trim()} (about ${subject})`;
  return { query: resolved, subject };
}
