import type { ChunkRecord } from '../../schema/index.js';
import { chunksWhere } from './chunks-where.js';
import { QUERY_STOPWORDS, withoutAskingManner } from './stopwords.js';
import { analyze } from './tokenizer.js';
import { WORK_NAME_SET, WORK_NAMES, withoutTheWork, workNamePattern } from './work-names.js';

/**
 * Names of the page a book, a manual or a docs site opens with, where it says what it covers, who
 * it is for, how long it takes and what a reader needs: `intro.md`, `index.rst`, `README.md`.
 */
const FRONT_MATTER_NAMES = new Set([
  'intro',
  'introduction',
  'index',
  'readme',
  'preface',
  'foreword',
  'overview',
  'about',
  'welcome',
]);

/**
 * True for a document at the corpus root named as an opening page ({@link FRONT_MATTER_NAMES}).
 * A chapter's own `index.md` is not the book's front matter: only the root's counts.
 */
export function isFrontMatter(source: string): boolean {
  if (source.includes('/') || source.includes('\\')) return false;
  const name = source.replace(/\.[^.]*$/, '').toLowerCase();
  return FRONT_MATTER_NAMES.has(name);
}

/** The chunks of the corpus's front matter, in chunk order (empty when it has none). */
export function frontMatterChunks(chunks: readonly ChunkRecord[]): Int32Array {
  return chunksWhere(chunks, (chunk) => isFrontMatter(chunk.source));
}

const WORK = `(?:${WORK_NAMES.join('|')})`;

/** Phrases that ask about the whole work whatever else the question names ("can I follow along?"). */
const ABOUT_THE_WORK = new RegExp(
  [
    String.raw`\bfollow(?:ing)?\s+along\b`,
    // "Do I need a robot to follow this book?": to follow the work is to read it through.
    String.raw`\bfollow(?:ing)?\s+${workNamePattern('this|the')}`,
    // "Do I need a GPU for this course?": what it takes to follow the work is asked of it.
    String.raw`\b(?:need|require)\b[^.?!]{0,120}?\b(?:for|to\s+(?:follow|take|do|read|finish|complete|start))\s+${workNamePattern('this|the')}`,
    // "Does this class require hardware?": the work itself needs it ("the class" is code's).
    String.raw`\b(?:does|do|will|would)\s+${workNamePattern('this|the|your')}\s+(?:really\s+|actually\s+)?(?:need|require)s?\b`,
    String.raw`\bget\s+through\s+(?:all\s+(?:of\s+)?)?(?:this|it)\b`,
    String.raw`\bwho\s+(?:is|was|'s)\s+${workNamePattern('this|the')}\s+(?:\w+\s+)?for\b`,
    String.raw`\b(?:this|the)\s+(?:whole|entire|full)\s+${WORK}\b`,
    String.raw`\bwhat\s+(?:is|'s)\s+${workNamePattern('this|the')}\s+about\b`,
    // "What will it teach me?", not "What will this course teach me about ROS 2 topics?".
    String.raw`\bwhat\s+(?:will|would|does|is)\s+(?:it|${workNamePattern('this')}|this)\s+(?:going\s+to\s+)?teach(?:\s+(?:me|us|you))?\s*[?.!]*$`,
  ].join('|'),
);

const NAMES_THE_WORK = new RegExp(workNamePattern());

/**
 * Words a question about the work itself is made of besides the work's name: what it covers, for
 * whom, how long it takes, what a reader needs (stemmed, as the index reads them).
 */
const WORK_QUESTION_WORDS: ReadonlySet<string> = new Set(
  analyze(
    `${WORK_NAMES.join(' ')}
    cover covers covered teach teaches learn learning about written write aimed meant suitable
    audience reader readers student students beginner beginners long weeks week semester months
    hours take takes need needs install buy require required prerequisites start begin pitch
    summary overview structure structured organised organized parts chapters topics subjects content
    contents include includes focus goal goals purpose broadly main idea read finish complete
    whole entire full one line short open opened going overall many much time wrote author authors
    intended target big picture point hard difficult level assume assumes say says said mention
    mentions discuss discusses talk talks just`,
  ),
);

/** True for a word (stemmed) a question about the work is made of: covers, written, weeks… */
export function isWorkQuestionStem(stem: string): boolean {
  return WORK_QUESTION_WORDS.has(stem);
}

/**
 * True when `query` names the work and asks nothing else of it: every other word is one a
 * question about the work is made of ("Who is this book written for?", "What topics does the
 * course cover?"). Such a question has no subject of its own for an answer to name.
 */
export function asksOnlyAboutTheWork(query: string): boolean {
  const lower = withoutAskingManner(query).toLowerCase();
  return NAMES_THE_WORK.test(lower) && madeOfWorkWords(lower);
}

/** True when every word of lower-case `text` but its asking words is one about the work. */
function madeOfWorkWords(text: string): boolean {
  // "this class" is the work's name only as a whole: "class" alone is no word about the work.
  return analyze(withoutTheWork(text), QUERY_STOPWORDS).every((word) =>
    WORK_QUESTION_WORDS.has(word),
  );
}

// "Who is this book for?", "Who is the course aimed at?": the opening page answers with the
// readers it names, in words the question never uses.
const ASKS_WHO_FOR = /\bwho\b.*\b(?:for|aimed|meant|intended|suitable|written)\b|\baudience\b/;
const AUDIENCE_TERMS = analyze(
  'students student beginners beginner researchers readers reader learners engineers developers audience newcomers',
);

// "Can I follow along without a robot?", "Do I need a GPU for this course?": the opening page
// answers with what it requires, or that it requires nothing, in words the question never uses.
const ASKS_WHAT_IT_NEEDS =
  /\b(?:need|needs|needed|require[sd]?|requirements?|without|prerequisites?|have to (?:buy|own|have))\b/;
const NEEDS_TERMS = analyze('requiring requirements prerequisites hardware software setup');

/** The words in which an opening page says what following the work requires. */
export const WORK_NEEDS_TERMS: readonly string[] = NEEDS_TERMS;

/** True when a question asks what following the work requires ("Do I need a robot to …?"). */
export function asksWhatTheWorkNeeds(query: string): boolean {
  return ASKS_WHAT_IT_NEEDS.test(query.toLowerCase());
}

/**
 * The terms an answer to a question about the work is chosen by (see `asksOnlyAboutTheWork`): the
 * question's own words but the work's name, which is on every line of its opening page, and for
 * "who is it for?" the words that name readers.
 *
 * @example
 * workQuestionTerms('What does this book cover?'); // ['cover']
 */
export function workQuestionTerms(query: string): string[] {
  const lower = query.toLowerCase();
  // "this class": the work's name as written, not a word to find ("Class Labeling").
  const terms = analyze(withoutTheWork(lower), WORK_NAME_SET);
  if (ASKS_WHO_FOR.test(lower)) terms.push(...AUDIENCE_TERMS);
  if (ASKS_WHAT_IT_NEEDS.test(lower)) terms.push(...NEEDS_TERMS);
  return terms;
}

/**
 * How a question asks about the work itself: `'only'` when it has no other topic ("What does this
 * book cover?", "How long is the course?"), `'also'` when it says so in a phrase and names topics
 * too ("Can I follow along without a robot or a GPU?"), undefined when it asks about a topic in
 * the work. "What does the book say about sensor fusion?" names the book but asks about sensor
 * fusion: the work's name only counts when every other word is one such a question is made of
 * ({@link WORK_QUESTION_WORDS}).
 */
export function askingAboutTheWork(query: string): 'only' | 'also' | undefined {
  // "Quick one: how long is the course?": how the answer should be put is no part of the ask.
  const lower = withoutAskingManner(query).toLowerCase();
  const phrase = ABOUT_THE_WORK.test(lower);
  if (!phrase && !NAMES_THE_WORK.test(lower)) return undefined;
  if (madeOfWorkWords(lower)) return 'only';
  return phrase ? 'also' : undefined;
}
