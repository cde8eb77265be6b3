/**
 * Which words of a question name the work itself ("this book", "the course", "your guide", "this
 * class"), and what the work calls itself. Every reader of a question that asks whether it names
 * the work reads it here, so "the class" cannot be the work in one place and code in another.
 */

/** What a reader calls the work they are reading: "this book", "the course", "your guide". */
export const WORK_NAMES: readonly string[] = [
  'book',
  'textbook',
  'guide',
  'course',
  'text',
  'tutorial',
  'curriculum',
  'syllabus',
  'programme',
  'material',
  'documentation',
  'docs',
  'manual',
  'handbook',
  'site',
];
/** {@link WORK_NAMES} as a set of words, to leave out of a question's terms. */
export const WORK_NAME_SET: ReadonlySet<string> = new Set(WORK_NAMES);
const POINTS_AT_THE_WORK = new Set(['this', 'the', 'your']);
/**
 * Names of the work only right after "this": "Does this class teach welding?", "How long is this
 * class?". "The class" is as often a class in code ("What does the class do?"); "program" is no
 * name of the work at all: a program is also software ("How long does the program take to run?").
 */
const WORK_NAMES_AFTER_THIS: readonly string[] = ['class'];
const WHOLE = new Set(['whole', 'entire', 'full']);

/**
 * A regular expression's source for the work named with one of `pointers` ("this|the|your"):
 * "this book", "the whole course", "your guides", and "this class" (only after "this"). No flags
 * and no groups that capture, so callers put it inside expressions of their own.
 *
 * @example
 * new RegExp(String.raw`\bdoes\s+${workNamePattern('the|this')}\s+cover\b`, 'i').test('Does the guide cover Nav2?'); // true
 */
export function workNamePattern(pointers = 'this|the|your'): string {
  return String.raw`\b(?:(?:${pointers})\s+(?:(?:whole|entire|full)\s+)?(?:${WORK_NAMES.join('|')})s?|this\s+(?:${WORK_NAMES_AFTER_THIS.join('|')}))\b`;
}

/** True when `words[i]` is the name of the work, pointed at: "book" in "this book", "class" in "this class". */
export function workNameAt(words: readonly string[], i: number): boolean {
  if (i < 1) return false;
  const word = words[i]!;
  if (words[i - 1] === 'this' && WORK_NAMES_AFTER_THIS.includes(word)) return true;
  // "the whole textbook": one of these may stand between.
  const before = WHOLE.has(words[i - 1]!) && i > 1 ? words[i - 2]! : words[i - 1]!;
  if (!POINTS_AT_THE_WORK.has(before)) return false;
  return WORK_NAME_SET.has(word) || (word.endsWith('s') && WORK_NAME_SET.has(word.slice(0, -1)));
}

/**
 * True when lower-case `words` name the work ("this book", "the courses", "your guide"), as the
 * router reads a question: its words about the work are then no subject of it.
 */
export function namesTheWork(words: readonly string[]): boolean {
  for (let i = 1; i < words.length; i += 1) if (workNameAt(words, i)) return true;
  return false;
}

const NAMED_AFTER_THIS = new RegExp(
  String.raw`\bthis\s+(?:${WORK_NAMES_AFTER_THIS.join('|')})\b`,
  'gi',
);

/**
 * `text` with the work's names that name it only after "this" taken out ("Does this class need a
 * GPU?" → "Does this need a GPU?"): "class" there is no word to look for, and the book's "Class
 * Labeling" lines are not about it. The work's usual names ("this book") are left to the ranking,
 * as before.
 */
export function withoutWorkNamedAfterThis(text: string): string {
  return text.replace(NAMED_AFTER_THIS, 'this');
}

/**
 * How an opening page says its work is taught as a course: a course, semester, syllabus or
 * curriculum, lectures, or a weekly plan ("weekly learning modules … over a 12-13 week period",
 * the textbook's introduction). "Of course" is no course. The ROS 2 docs' `index.rst` says none
 * of it: there "the class" is a class in code.
 */
const TAUGHT_AS_A_COURSE =
  /\b(?:(?<!\bof\s)courses?|semesters?|syllabus|curriculum|lectures?|weekly|(?:\d+(?:\s*[-–]\s*\d+)?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen)[-\s]weeks?)\b/i;

/**
 * True when the corpus's opening page (`openingChunks`, its front matter in chunk order) says the
 * work is taught as a course ({@link TAUGHT_AS_A_COURSE}): then "the class" names the work, as
 * "this class" always does ("Does the class need a GPU?").
 *
 * @example
 * taughtAsCourse([{ title: 'Intro', headingPath: [], text: 'Weekly modules over a 12-13 week period.' }]); // true
 */
export function taughtAsCourse(
  openingChunks: ReadonlyArray<{ title: string; headingPath: readonly string[]; text: string }>,
): boolean {
  return openingChunks.some((chunk) =>
    TAUGHT_AS_A_COURSE.test([chunk.title, ...chunk.headingPath, chunk.text].join('\n')),
  );
}

/**
 * "the class" where it stands for the work: at the end of the question or a clause, or before
 * what a course does or is asked about ("Does the class need a GPU?", "Who is the class for?",
 * "How long is the class?"); not before a noun it qualifies ("the class labeling step").
 */
const THE_CLASS =
  /\bthe(\s+)class\b(?=\s*(?:[?.!,;:)]|$)|\s+(?:need|needs|require|requires|teach|teaches|cover|covers|take|takes|last|lasts|use|uses|assume|assumes|include|includes|expect|expects|involve|involves|go|goes|get|gets|start|starts|begin|begins|end|ends|run|runs|have|has|is|was|will|would|should|can|could|does|did|do|really|actually|also|for|about|at|on|in|and|or|but|so|if|without|with|mention|mentions|discuss|discusses|say|says|want|wants|ask|asks|let|lets|allow|allows|provide|provides|offer|offers|give|gives|hard|difficult|easy|long|short|free|online|worth|good|suitable)\b)/gi;

/**
 * `text` with "the class" read as "this class" where it stands for the work (see
 * {@link THE_CLASS}), for a corpus {@link taughtAsCourse}: "Does the class need a GPU?" over the
 * textbook asks what following it needs, not about the perception chapter's "Class Labeling".
 *
 * @example
 * theClassAsTheWork('Does the class need a GPU?'); // 'Does this class need a GPU?'
 */
export function theClassAsTheWork(text: string): string {
  return text.replace(THE_CLASS, 'this$1class');
}

/**
 * The work's name and the verb asking whether it covers something, before what it is asked to
 * cover: "the documentation discusses" in "Does the documentation discuss Windows?", "this course
 * teach" in "Will this course teach ROS 2?". Not at the end of the question ("What does the book
 * cover?" asks what the work covers, and its opening page answers).
 */
const ASKS_IF_IT_COVERS = new RegExp(
  String.raw`${workNamePattern('this|the|your')}\s+(?:(?:ever|really|actually|also)\s+)?(?:cover|covers|discuss|discusses|mention|mentions|talk\s+about|talks\s+about|teach|teaches|include|includes|go\s+into|goes\s+into|deal\s+with|deals\s+with|touch\s+on|touches\s+on|explain|explains|(?:say|says|have|has)\s+anything\s+(?:about|on))\b(?=\s+[\w"'“‘])|\b(?:in|of)\s+${workNamePattern('this|the|your')}(?=\s+(?:about|on)\b)`,
  'gi',
);

/**
 * The work and what it does, ending a question that asks which things it does it to: "does the
 * book discuss" in "What humanoid robots does the book discuss?", "does the book recommend" in
 * "Which cloud providers does the book recommend?". The things asked about come before (group 1,
 * kept); the verb is the book's act, whatever it is. The question's opening is matched from its
 * start, not in a lookbehind: V8 tried a lookbehind backwards at every position, each over every
 * split of the text before it, so one 2,000-letter word took 15 s of a core.
 */
const ASKS_WHAT_IT_VERBS = new RegExp(
  String.raw`^(\s*(?:what|which)\s+(?!(?:do|does|did|will|would)\b)[\w-]+(?![\w-]).*?)\b(?:do|does|did|will|would)\s+${workNamePattern('this|the|your')}\s+(?:\w+ly\s+)?[a-z]+\s*(?=[?.!]*\s*$)`,
  'i',
);

/**
 * `text` without the work's name and the verb asking whether it covers what follows ("Does the
 * documentation discuss Windows?" → "Does Windows?"): the thing asked about is what to search
 * for; so is "in the documentation" before "about" ("Is there anything in the documentation about
 * lifecycle nodes?"). Over the ROS 2 docs "documentation" and "discuss" were searched as the subject and the
 * answer quoted the contributing guide's "improves documentation" and "start a discussion"; "book"
 * and "cover" were already no words to search (`QUERY_STOPWORDS`).
 *
 * @example
 * withoutCoverageAsk('Does the documentation discuss Windows?'); // 'Does   Windows?'
 */
export function withoutCoverageAsk(text: string): string {
  return text.replace(ASKS_IF_IT_COVERS, ' ').replace(ASKS_WHAT_IT_VERBS, '$1 ');
}

const NAMES_THE_WORK_CASED = new RegExp(workNamePattern(), 'i');
// "that guide" too, when the work's names are taken out of a later ask.
const THE_WORK_NAMED = new RegExp(workNamePattern('this|that|the|your'), 'gi');

/** The work as `text` names it ("this book", "the whole course"), if it does. */
export function workNamedIn(text: string): string | undefined {
  return NAMES_THE_WORK_CASED.exec(text)?.[0];
}

/**
 * `text` without the names of the work ("this guide", "the whole course"): "this" there points at
 * the work, not back at what was asked before.
 *
 * @example
 * withoutTheWork('and what does this guide cover'); // 'and what does   cover'
 */
export function withoutTheWork(text: string): string {
  return text.replace(THE_WORK_NAMED, ' ');
}

/**
 * The work's names a notice can call it by ("The documentation does not cover …"), each as the
 * notice writes it: "docs" reads as "documentation" (the notice's verbs are singular); "text" and
 * "material" say nothing of what the work is.
 */
const NOTICE_NAMES: ReadonlyMap<string, string> = new Map([
  ...WORK_NAMES.filter((name) => name !== 'text' && name !== 'material').map(
    (name) => [name, name] as const,
  ),
  ['docs', 'documentation'],
]);
const NOTICE_NAME = new RegExp(String.raw`\b(?:${[...NOTICE_NAMES.keys()].join('|')})\b`, 'i');
/** How much of the opening page's first passage is read for its name: its first lines. */
const OPENING_CHARS = 400;

/**
 * What the work calls itself on its opening page (`openingChunks`, the corpus's front matter in
 * chunk order): the first of its names in the page's title or its first lines ("ROS 2
 * Documentation" → "documentation", "Welcome to the Physical AI & Humanoid Robotics book." →
 * "book"), or undefined when it names itself none of them. The assistant's notices then say "The
 * documentation does not cover …" over the ROS 2 docs rather than "The book …".
 *
 * @example
 * workNameOf([{ title: 'ROS 2 Documentation', headingPath: [], text: 'ROS is …' }]); // 'documentation'
 */
export function workNameOf(
  openingChunks: ReadonlyArray<{ title: string; headingPath: readonly string[]; text: string }>,
): string | undefined {
  const first = openingChunks[0];
  if (!first) return undefined;
  const opening = [first.title, ...first.headingPath, first.text.slice(0, OPENING_CHARS)].join(
    '\n',
  );
  const found = NOTICE_NAME.exec(opening)?.[0].toLowerCase();
  return found === undefined ? undefined : NOTICE_NAMES.get(found);
}
