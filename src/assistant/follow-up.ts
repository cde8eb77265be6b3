import { questionSubject } from '../agents/index.js';
import {
  analyze,
  askingAboutTheWork,
  nameRunsWritten,
  QUERY_STOPWORDS,
  STOPWORDS,
  withoutTheWork,
  workNamedIn,
} from '../retrieval/index.js';
import type { Message } from '../schema/index.js';
import { objectPronounAt } from './object-pronoun.js';

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
 * Most topic words of a question whose pronoun's place says it stands for an earlier subject (the
 * subject of "What hardware does it need?", the object of "Which numerical methods can solve
 * it?"): the words it asks about it are its own. "Which path planning algorithms does it use?" has
 * four and was left as asked.
 */
const MAX_PLACED_FOLLOW_UP_TERMS = 5;
/**
 * A pronoun that is the subject of a wh-question whose few words before it are what is asked
 * about it ("What hardware does it need?", "How much RAM does it take?", "Which GPU can they
 * use?"): it cannot stand for those words (they are its own clause's object), so it stands for
 * an earlier turn's subject.
 */
const PRONOUN_SUBJECT =
  /^(?:what|which|how (?:much|many))(?: [a-z0-9-]+){1,3} (?:does|do|did|is|are|was|were|can|could|will|would|should|might) (it|they|this|that|these|those)\b/i;
/** Most words of a bare request for more ("tell me more", "how about an example?"). */
const MAX_BARE_WORDS = 4;
/** Words that open a turn of conversation without being part of the question ("ok but …"). */
const OPENER =
  /^(?:(?:and|so|ok(?:ay)?|but|well|hmm+|right|cool|great|thanks|alright|also)\b[\s,.!]*)+/i;

/**
 * How a question leans on the earlier turns for its subject: by a pronoun with nothing before it
 * that it could stand for ("What does it stand for?"; in "How does the robot know it's tipping
 * over?" it stands for the robot) or that is the subject of what is asked ("What hardware does it
 * need?"); by an object pronoun at `index` of the question ("Which numerical methods can solve
 * it?"); or as a whole, a bare request for more ("Why?", "tell me more"; a question that only
 * starts with "how" or "why" asks something of its own). Undefined when it does not.
 */
type Leaning =
  { by: 'pronoun' } | { by: 'object'; index: number; word: string } | { by: 'question' };

function leaningOf(query: string): Leaning | undefined {
  // "this book", "the course" name the work: that "this" points at nothing said before, and a
  // question naming the work has a subject of its own ("Who is this book for?").
  const opened = query.trim().replace(OPENER, '');
  const asked = withoutTheWork(opened).replace(/\s+/g, ' ').trim();
  const namesWork = asked !== opened.replace(/\s+/g, ' ').trim();
  const own = analyze(asked, QUERY_STOPWORDS);
  const pronoun = PRONOUN.exec(asked);
  if (
    pronoun !== null &&
    own.length <= MAX_FOLLOW_UP_TERMS &&
    analyze(asked.slice(0, pronoun.index), QUERY_STOPWORDS).length === 0
  )
    return { by: 'pronoun' };
  // "What factory jobs could these robots take on?": a demonstrative may be a determiner, whose
  // noun is the subject; only "it" and "they" take the wider limit.
  const placed = PRONOUN_SUBJECT.exec(asked)?.[1];
  if (
    placed &&
    own.length <= (/^(?:it|they)$/i.test(placed) ? MAX_PLACED_FOLLOW_UP_TERMS : MAX_FOLLOW_UP_TERMS)
  )
    return { by: 'pronoun' };
  const object = own.length <= MAX_PLACED_FOLLOW_UP_TERMS ? objectPronounAt(opened) : undefined;
  if (object) {
    // `opened` is the end of the trimmed query: its place in `query` is what comes before it.
    const offset = query.trimEnd().length - opened.length;
    return { by: 'object', index: offset + object.index, word: object.word };
  }
  // "Why?", "how so?", "more details please"; "How long is the course?" asks about the course.
  if (namesWork) return undefined;
  if (BARE.test(asked) && own.length <= 1 && asked.split(/\s+/).length <= MAX_BARE_WORDS)
    return { by: 'question' };
  return own.length === 0 && madeOfFunctionWords(query) ? { by: 'question' } : undefined;
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

/** The new subject of an ellipsis ("how about the G1?" → "the G1"), if `text` is one. */
function ellipsisSubject(text: string): string | undefined {
  // "and on a Jetson?" asks of "a Jetson": kept, the preposition read "run on on a Jetson".
  const subject = ELLIPSIS.exec(text.trim())?.[1]
    ?.trim()
    .replace(/^(?:on|in|for|with|at|from|by)\s+(?=\S)/i, '');
  if (!subject || NO_SUBJECT.test(subject)) return undefined;
  // "and how heavy is it?" is a question of its own, not a new subject.
  return subject.split(/\s+/).some((word) => ASKING_WORD.test(word)) ? undefined : subject;
}
/** The new subject of an ellipsis without its article ("how about the G1?" → "G1"), if any. */
function ellipsisName(text: string): string | undefined {
  return ellipsisSubject(text)?.replace(/^(?:a|an|the)\s+/i, '');
}
const ASKING_WORD =
  /^(?:what|how|why|when|where|who|which|is|are|was|were|does|do|did|can|could|should|would|will|it|they|them)$/i;

/**
 * A subject phrase that names nothing of its own: the one asking ("Why would I use it?") or an
 * owner left to an earlier turn ("What are its success metrics?", which was left as asked).
 */
const NAMES_NOTHING = /^(?:i|we|you)$|^(?:its|their)\b/i;

/**
 * What an earlier question was about, as it wrote it, for a later one to ask of: its subject
 * phrase ("ROS 2 topic"); the work for a question about the work ("this book"); the new subject
 * of an ellipsis ("the G1"); else the names it wrote ("How tall is the Unitree H1?": "Unitree
 * H1"). Of several names, the longest; for a new subject `like` a model number ("the L4"), the
 * longest that is one too ("Is the A10G enough for Isaac Sim?": "A10G", not "Isaac Sim").
 * Undefined when it names none of these.
 */
function subjectOf(question: string, like?: string): { phrase: string; head?: string } | undefined {
  const { phrase, head } = questionSubject(question);
  if (phrase && !NAMES_NOTHING.test(phrase)) return { phrase, ...(head ? { head } : {}) };
  if (askingAboutTheWork(question) === 'only') {
    const work = workNamedIn(question);
    if (work) return { phrase: work };
  }
  const again = ellipsisName(question);
  if (again) return { phrase: again };
  const numbered = (name: string) => /\d/.test(name);
  const alike = (name: string) => like !== undefined && numbered(name) === numbered(like);
  const best = nameRunsWritten(question).sort(
    (a, b) => Number(alike(b)) - Number(alike(a)) || b.length - a.length,
  )[0];
  return best ? { phrase: best } : undefined;
}

/**
 * The earlier question asked again of a new subject: "What is a ROS 2 topic?" then "and an
 * action?" reads "What is an action?". Undefined unless `query` is such an ellipsis and the latest
 * earlier question that named a subject wrote it out.
 */
function askedAgainOf(query: string, history: readonly Message[]): FollowUp | undefined {
  const subject = ellipsisSubject(query);
  if (!subject) return undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message?.role !== 'user') continue;
    // An earlier ellipsis is read as it was resolved: "and an action?" as "What is a ROS 2 action?".
    const content = askedAgainOf(message.content, history.slice(0, i))?.query ?? message.content;
    const found = subjectOf(content, subject);
    if (!found) continue;
    const { phrase: earlier, head } = found;
    // "a ROS 2 topic" then "and an action?": the name before the head is the context the new
    // subject is asked in ("a ROS 2 action"); a common word before it is part of the old term
    // ("a joint limit" then "and an action?" asks of an action, not of a "joint action").
    const context = head && earlier.endsWith(head) ? earlier.slice(0, -head.length).trim() : '';
    const noun = subject.replace(/^(?:a|an|the)\s+/i, '');
    const inContext = NAME.test(context) && noun === noun.toLowerCase();
    const replaced = inContext ? head! : earlier;
    // The replaced words with the article before them, replaced whole by the new subject's.
    const escaped = replaced.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Whole words only, a dotted name included: "2xlarge" is no part of "g5.2xlarge" to replace.
    const whole = `(?<![\\w.-])${escaped}(?![\\w-]|\\.\\w)`;
    const written = new RegExp(inContext ? whole : `(?:\\b(?:a|an|the)\\s+)?${whole}`, 'i');
    if (!written.test(content)) return undefined;
    const asked = content.trim().replace(written, () => (inContext ? noun : subject));
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

/**
 * The subject an earlier question named ({@link subjectOf}), or for `whole` the question itself
 * when it named none ("Why? (about how robots keep their balance)").
 */
function earlierSubject(
  history: readonly Message[],
): { phrase: string; whole: boolean } | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message?.role !== 'user') continue;
    // "how about the G1?" names its subject, though it opens like a bare "how?".
    const again = ellipsisName(message.content);
    if (again) return { phrase: again, whole: false };
    // A follow-up itself ("what does it stand for?", "why is that?") points further back.
    if (leaningOf(message.content)) continue;
    const subject = subjectOf(message.content);
    if (subject) return { phrase: subject.phrase, whole: false };
    if (analyze(message.content, QUERY_STOPWORDS).length > 0)
      return { phrase: message.content.trim().replace(/[?!.]+$/, ''), whole: true };
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
  const own = questionSubject(query).phrase;
  if (own && !NAMES_NOTHING.test(own)) return { query };
  const leaning = leaningOf(query);
  if (!leaning) return { query };
  const earlier = earlierSubject(history);
  if (!earlier) return { query };
  const subject = earlier.phrase;
  // A whole earlier question does not read in a pronoun's place ("how heavy is How tall is …").
  if (earlier.whole || (leaning.by !== 'object' && !PRONOUN.test(withoutTheWork(query))))
    return { query: `${query.trim()} (about ${subject})`, subject };
  const resolved =
    leaning.by === 'object'
      ? query.slice(0, leaning.index) + subject + query.slice(leaning.index + leaning.word.length)
      : query.replace(PRONOUN, (word) => (/^its$/i.test(word) ? `${subject}'s` : subject));
  return { query: resolved, subject };
}
