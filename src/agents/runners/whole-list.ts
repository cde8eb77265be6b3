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
  const run = outerItems(sentences.slice(start, end + 1)).filter(
    (sentence) => !sentence.text.endsWith(':'),
  );
  return run.length > 1 ? run : undefined;
}

/**
 * The items of a list at its outermost level: a nested list's items are details of the item above
 * them. The ROS 2 docs' "QoS policies" lists History, Depth, Reliability … each with its settings
 * indented under it ("Keep last", "Keep all"); quoted flat, eight lines named three policies. An
 * outer item that introduces its nested ones ("Differences:") says nothing itself: they stand in
 * its place.
 *
 * @example
 * outerItems(sentencesOf('* History\n\n  * Keep last: …\n\n* Depth')); // History, Depth
 */
export function outerItems<T extends Pick<PassageSentence, 'indent' | 'text'>>(
  items: readonly T[],
): T[] {
  const outer = Math.min(...items.map((item) => item.indent ?? 0));
  let parent: T | undefined;
  return items.filter((item) => {
    if ((item.indent ?? 0) <= outer) {
      parent = item;
      return true;
    }
    return parent === undefined || parent.text.endsWith(':');
  });
}

/**
 * The items a question asks for of a list: the items nested under the one outer item the question
 * names, when it names one that has two or more ("What are the QoS reliability options?": Best
 * effort and Reliable, under Reliability), else the outer items ({@link outerItems}). `items` are the list's
 * items in order; an outer item is named when every term of its label (before a colon) is asked.
 *
 * @example
 * itemsAsked(items, new Set(['qos', 'reliabl', 'option']), analyze); // Best effort, Reliable
 */
export function itemsAsked<T extends Pick<PassageSentence, 'indent' | 'text'>>(
  items: readonly T[],
  asked: ReadonlySet<string>,
  terms: (text: string) => string[],
): T[] {
  const outer = outerItems(items);
  const named = outer.filter((item) => {
    const label = terms(item.text.split(':')[0] ?? '');
    return label.length > 0 && label.every((term) => asked.has(term));
  });
  const [parent] = named;
  if (named.length !== 1 || parent === undefined) return outer;
  const depth = parent.indent ?? 0;
  const nested: T[] = [];
  for (const item of items.slice(items.indexOf(parent) + 1)) {
    if ((item.indent ?? 0) <= depth) break;
    nested.push(item);
  }
  // One nested line describes its item; it is no list of options: "What packages are in the
  // ament_cmake repository?" quoted only "aggregates all other packages in this repository…",
  // the line under "ament_cmake", with no package named (an outside review).
  return nested.length > 1 ? nested : outer;
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
