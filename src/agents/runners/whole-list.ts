import type { PassageSentence } from './passage-sentences.js';

/**
 * Most items of the answering passage's list quoted (see {@link listRun}): textbook sections
 * under a heading list 3–6 items, and a longer list is quoted from its start.
 */
export const WHOLE_LIST_ITEMS = 6;

/**
 * The list items standing together with the one at `position` in a passage's sentences: the run
 * of bullet items around it, up to the prose (or the end) on either side; `undefined` when the
 * line is no bullet item or stands alone. A table's rows (" | ") stand together too: the ROS 2
 * docs' "Supported RMW implementations" is a list-table, one implementation a row.
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
  // A table's rows stand together, as a list's items do, but neither with the other.
  const isRow = (sentence: PassageSentence) => sentence.tableRow === true;
  const table = sentences[index] !== undefined && isRow(sentences[index]);
  const isItem = (sentence: PassageSentence | undefined) =>
    sentence !== undefined && sentence.listItem && isRow(sentence) === table;
  if (!isItem(sentences[index])) return undefined;
  let start = index;
  while (isItem(sentences[start - 1])) start -= 1;
  let end = index;
  while (isItem(sentences[end + 1])) end += 1;
  // An item introducing items of its own ("Differences from ROS 1:") says nothing quoted alone.
  const items = sentences.slice(start, end + 1);
  const run = withFirstDetail(
    outerItems(items).filter((sentence) => !sentence.text.endsWith(':')),
    items,
  );
  return run.length > 1 ? run : undefined;
}

/** An item that is a label and what it is ("Keep last: only store up to N samples"). */
const LABELLED_OPTION = /^[^:.!?]{1,40}:\s/;

/** Most words of an outer item that is a bare label ("Fast DDS <-> Connext", "IDL format"). */
const BARE_LABEL_WORDS = 6;

/**
 * True for an outer item that is only a label: a few words, no sentence and no "label: what it
 * is", so its meaning is in the items nested under it.
 */
function isBareLabel(text: string): boolean {
  return (
    !/[:.!?;]/.test(text) && !text.includes(' | ') && text.split(/\s+/).length <= BARE_LABEL_WORDS
  );
}

/**
 * `outer` items with each bare label ({@link isBareLabel}) followed by the first sentence of its
 * first nested item (in `items`, the whole list): "Fast DDS <-> Connext — WString published by
 * Fast DDS can't be received correctly by Connext on macOS". Quoted alone, the ROS 2 docs' list of
 * inter-vendor configurations that are not supported read as if the two vendors could not talk at
 * all.
 *
 * @example
 * withFirstDetail(outerItems(items), items); // [{ text: 'Fast DDS <-> Connext — WString …', … }]
 */
export function withFirstDetail<T extends Pick<PassageSentence, 'indent' | 'text'>>(
  outer: readonly T[],
  items: readonly T[],
): T[] {
  return outer.map((item) => {
    if (!isBareLabel(item.text)) return item;
    const next = items[items.indexOf(item) + 1];
    if (next === undefined || (next.indent ?? 0) <= (item.indent ?? 0)) return item;
    // Nested options of their own ("Keep last: only store up to N samples" under the QoS policy
    // "History") are choices, not what the label means: the first alone would misstate it.
    if (LABELLED_OPTION.test(next.text)) return item;
    const detail = next.text.split(/(?<=[.!?])\s+(?=["'(A-Z0-9])/)[0] ?? next.text;
    return { ...item, text: `${item.text} — ${detail}` };
  });
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
  if (named.length !== 1 || parent === undefined) return withFirstDetail(outer, items);
  const depth = parent.indent ?? 0;
  const nested: T[] = [];
  for (const item of items.slice(items.indexOf(parent) + 1)) {
    if ((item.indent ?? 0) <= depth) break;
    nested.push(item);
  }
  // One nested line describes its item; it is no list of options: "What packages are in the
  // ament_cmake repository?" quoted only "aggregates all other packages in this repository…",
  // the line under "ament_cmake", with no package named (an outside review).
  return nested.length > 1 ? nested : withFirstDetail(outer, items);
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
