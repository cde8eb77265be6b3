import type { PassageSentence } from './passage-sentences.js';

/**
 * Most items of the answering passage's list quoted (see {@link listRun}): textbook sections
 * under a heading list 3–6 items, and a longer list is quoted from its start.
 */
export const WHOLE_LIST_ITEMS = 6;

/**
 * The list items standing together with the one at `position` in a passage's sentences: the run
 * of bullet items around it, up to the prose (or the end) on either side; `undefined` when the
 * line is no bullet item or stands alone. A table's rows (" | ") are not a list of statements.
 *
 * @example
 * listRun(sentencesOf('- **Macros**: Reusable components\n- **Properties**: Parameters'), 1);
 * // both items
 */
export function listRun(
  sentences: readonly PassageSentence[],
  position: number,
): PassageSentence[] | undefined {
  const index = sentences.findIndex((sentence) => sentence.position === position);
  const isItem = (sentence: PassageSentence | undefined) =>
    sentence !== undefined && sentence.listItem && !sentence.text.includes(' | ');
  if (!isItem(sentences[index])) return undefined;
  let start = index;
  while (isItem(sentences[start - 1])) start -= 1;
  let end = index;
  while (isItem(sentences[end + 1])) end += 1;
  // An item introducing items of its own ("Differences from ROS 1:") says nothing quoted alone.
  const run = sentences.slice(start, end + 1).filter((sentence) => !sentence.text.endsWith(':'));
  return run.length > 1 ? run : undefined;
}

/**
 * True when a passage's own heading names something the question asks: one of its terms is the
 * question's. "Xacro" for "What does Xacro add to URDF?"; not "Walking Patterns" for "What sensors
 * does a humanoid use to keep its balance?", whose items name balance but whose list is gaits.
 */
export function headingSharesQuestion(
  section: string | undefined,
  terms: (text: string) => string[],
  queryTerms: ReadonlySet<string>,
): boolean {
  return ownHeadingTerms(section, terms).some((term) => queryTerms.has(term));
}

/** The terms of a passage's own heading, the last of its section path. */
function ownHeadingTerms(section: string | undefined, terms: (text: string) => string[]): string[] {
  return terms((section ?? '').split(' > ').at(-1) ?? '');
}

/**
 * True when a passage's own heading is the question's words: every term of it (two at least) is
 * one of the question's. "Domain Randomization" for "How does domain randomization help
 * sim-to-real transfer?", "Capture Point Control" for "How does capture point control keep a
 * humanoid balanced?"; not "Environment Randomization" (a kind of it) nor "Joints" (one word,
 * named by many questions in passing).
 */
export function headingIsQuestion(
  section: string | undefined,
  terms: (text: string) => string[],
  queryTerms: ReadonlySet<string>,
): boolean {
  const own = new Set(ownHeadingTerms(section, terms));
  return own.size >= 2 && [...own].every((term) => queryTerms.has(term));
}
