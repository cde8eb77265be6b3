import { isTableRule } from '../../retrieval/index.js';
import { plainInline } from './inline-markup.js';

/** A sentence of a passage, with where it came from so a selection can be put back in order. */
export interface Sentence {
  text: string;
  /** Position of the sentence within its passage. */
  position: number;
  /** True for a list item or table row rather than prose. */
  listItem: boolean;
  /** True for a numbered list item: a step of a procedure. */
  step: boolean;
  /** True for a table's row: rows stand together as a list's items do, but not with them. */
  tableRow?: boolean;
  /**
   * A list item's bullet column: an item indented under another ("* History" then "  * *Keep
   * last*: …") is a detail of that one, not an item of the list a question asks for. Unset at
   * the margin.
   */
  indent?: number;
  /**
   * The code block right after this sentence, if one follows it before any other sentence
   * ("To record a topic use the command syntax:" then "ros2 bag record <topic_name>"): what the
   * sentence may introduce. Code is never a sentence of its own.
   */
  code?: string;
  /**
   * The label the code stands under ("Linux" of a tab set's "Linux:" line, between the sentence
   * and its code): which system or language the code is for.
   */
  codeLabel?: string;
  /**
   * The other tabs of the tab set whose first tab is {@link code} ("macOS:", "Windows:" after
   * "Linux:"), in order: a question that names one of them is quoted its code (see `tabAsked`).
   */
  tabs?: { label: string; code: string }[];
}

const FENCE = /^\s*(```|~~~)/;
/** The lines and bullets of a drawn diagram (box drawing): its words are quoted without them. */
const DRAWING = /[\u2500-\u257f\u2580-\u259f\u2022\u25b2-\u25bc\u2190-\u21ff]+/g;

/** A box's top corners: a code block that draws boxes is a diagram, not code. */
const BOX_LEFT = /[\u250c\u250d\u250e\u250f\u2552\u2553\u2554\u256d]/;
const BOX_LEFT_ALL = new RegExp(BOX_LEFT.source, 'g');
const BOX_RIGHT = /[\u2510\u2511\u2512\u2513\u2555\u2556\u2557\u256e]/;

/**
 * The lines of `lines` with each fenced diagram (a block that draws boxes: "┌──┐ │ Motion Planning
 * Layer │ └──┘") read as the book's words rather than code: its fences dropped, so its lines are
 * quoted by their words as a diagram outside a block is, and a box's line in brackets ("(Trajectory
 * generation, obstacle avoidance, …)") goes on the line above it, the box's name. Before, such a
 * block was code no sentence introduced, and a passage that is only a diagram (a long section
 * cut in parts) had nothing to quote: "which layer takes care of trajectories?" cited four other
 * sections. A file tree ("├── src") draws no box and stays code.
 */
function unfenceDiagrams(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!FENCE.test(line)) {
      out.push(line);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !FENCE.test(lines[end] ?? '')) end += 1;
    const block = lines.slice(i + 1, end);
    const drawn = block.join('\n');
    // Boxes side by side ("│ Sensors │ │ Processing │") would mix their words line by line.
    const sideBySide = block.some((row) => (row.match(BOX_LEFT_ALL) ?? []).length > 1);
    if (end >= lines.length || !BOX_LEFT.test(drawn) || !BOX_RIGHT.test(drawn) || sideBySide) {
      out.push(...lines.slice(i, end + 1));
      i = end;
      continue;
    }
    let named = -1;
    for (const row of block) {
      const words = row.replace(DRAWING, ' ').trim();
      if (words === '') continue;
      if (words.startsWith('(') && named >= 0) out[named] = `${out[named]} ${row}`;
      else named = out.push(row) - 1;
    }
    i = end;
  }
  return out;
}

/**
 * A label line: up to three words and a colon, no sentence ("Linux:", "Python API:", "Output:"),
 * as a tab set's tabs lead their content.
 */
const LABEL = /^[^\s.!?:][^.!?:]{0,38}:$/;
const isLabel = (line: string) => LABEL.test(line) && line.split(/\s+/).length <= 3;

/** A list item's start: a bullet or a number, then a space. */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;
/** A Markdown heading, or a heading's underline (reStructuredText) or a rule. */
const HEADING = /^\s*#{1,6}\s/;
const RULE = /^\s*[=\-~^"*+#]{3,}\s*$/;

/** A line that is no prose: a list item, table row, heading, rule, quote or fence. */
const NOT_PROSE = /^\s*(?:[-*+]\s|\d+[.)]\s|\||#{1,6}\s|>|```|~~~|$)|^\s*[=\-~^"*+#]{3,}\s*$/;
/** A line that stops mid-sentence: it ends in a word, a comma or a closing bracket or quote. */
const MID_SENTENCE = /[\p{L}\p{N},)\]'"`]$/u;

/**
 * A paragraph's hard-wrapped lines as one line each: "… every node's default callback group is
 * a" then "Mutually Exclusive Callback Group." is one sentence, which was quoted as two fragments
 * ("… is a."). A prose line that stops mid-sentence goes on with the prose line after it, a list
 * item with the indented line after it; code and lines ending in a stop or a colon are left as
 * they are.
 */
function joinWrappedLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inFence = false;
  // The last line stops mid-sentence: prose, or a list item (which goes on indented).
  let open: 'prose' | 'item' | undefined;
  for (const line of lines) {
    if (FENCE.test(line)) inFence = !inFence;
    const prose = !inFence && !FENCE.test(line) && !NOT_PROSE.test(line);
    const item = !inFence && LIST_ITEM.test(line);
    const joins = prose && (open === 'prose' || (open === 'item' && /^\s/.test(line)));
    if (joins) out[out.length - 1] = `${out.at(-1)?.trimEnd()} ${line.trim()}`;
    else out.push(line);
    const stops = !MID_SENTENCE.test(line.trimEnd()) || isLabel(line.trim());
    if (stops || (!prose && !item)) open = undefined;
    else if (!joins) open = item ? 'item' : 'prose';
  }
  return out;
}

/** Markdown and reStructuredText markup that reads badly when quoted. */
function clean(line: string): string {
  // A role first: its target is in backticks, which the inline markup reads as code.
  const unroled = line
    // A reStructuredText list-table's row opens with two bullets ("* - Product name").
    .replace(/^\s*(?:(?:[-*+]|\d+[.)])\s+)+/, '')
    .replace(/:[a-z]+:`([^`<]+?)(?:\s*<[^>]*>)?`/g, '$1');
  return plainInline(unroled).replace(/\s+/g, ' ').trim();
}

/** A Markdown table row's cells, each read as quoted text. */
const cellsOf = (row: string) =>
  row.replace(DRAWING, ' ').trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map(clean);

/**
 * A table row as quoted: each cell under its column's name ("Distro: Humble Hawksbill · Release
 * date: May 23rd, 2022 · EOL date: May 2027"), empty cells left out, so a reader can tell what each
 * cell is; "cell | cell" when the table has no header row or the row has other columns.
 */
function rowText(cells: readonly string[], columns: readonly string[] | undefined): string {
  if (columns === undefined || columns.length !== cells.length)
    return cells.filter((cell) => cell !== '').join(' | ');
  return cells
    .map((cell, i) => (cell === '' ? '' : columns[i] ? `${columns[i]}: ${cell}` : cell))
    .filter((cell) => cell !== '')
    .join(' · ');
}

/**
 * Splits a passage into quotable sentences: prose split at sentence ends, list items and table
 * rows kept whole, headings and code blocks dropped.
 *
 * @example
 * splitSentences('A node is a process. It talks over topics.\n- **QoS**: delivery rules');
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let inFence = false;
  let code: string[] = [];
  // The sentence a code block would follow directly: none after a heading or another block.
  let introducer: Sentence | undefined;
  // A label line read before the code it labels, or before the sentence it leads.
  let codeLabel: string | undefined;
  let lead: string | undefined;
  // The sentence whose code is a tab set's first tab, while its other tabs follow, and the label
  // of the tab being read.
  let tabSet: Sentence | undefined;
  let tabLabel: string | undefined;
  // The column names of the table being read (its header row), if it has one.
  let columns: string[] | undefined;
  const lines = joinWrappedLines(unfenceDiagrams(text.split('\n')));
  for (const [index, raw] of lines.entries()) {
    if (FENCE.test(raw)) {
      inFence = !inFence;
      const written = code.some((line) => line.trim() !== '');
      if (!inFence && introducer && written) {
        introducer.code = code.join('\n');
        if (codeLabel !== undefined) {
          introducer.codeLabel = codeLabel;
          tabSet = introducer;
        }
      } else if (!inFence && tabSet && tabLabel !== undefined && written)
        (tabSet.tabs ??= []).push({ label: tabLabel, code: code.join('\n') });
      if (!inFence) {
        introducer = undefined;
        codeLabel = undefined;
        tabLabel = undefined;
      }
      code = [];
      continue;
    }
    if (inFence) {
      code.push(raw.trimEnd());
      continue;
    }
    if (HEADING.test(raw) || RULE.test(raw)) {
      introducer = undefined;
      lead = undefined;
      tabSet = undefined;
      continue;
    }
    if (isTableRule(raw)) continue;
    const tableRow = /^\s*\|/.test(raw);
    if (!tableRow) columns = undefined;
    // A table's header row ("Product name | License | …") names its columns, it is no row of
    // the table: quoted, it read as one more item. Its names label the cells of the rows below.
    if (tableRow && isTableRule(lines[index + 1] ?? '')) {
      columns = cellsOf(raw);
      continue;
    }
    const listItem = LIST_ITEM.test(raw) || tableRow;
    const step = /^\s*\d+[.)]\s+/.test(raw);
    const indent = LIST_ITEM.test(raw) ? (/^\s*/.exec(raw)?.[0].length ?? 0) : 0;
    const line = tableRow ? rowText(cellsOf(raw), columns) : clean(raw.replace(DRAWING, ' '));
    if (line.length < 3) continue;
    // A label says nothing alone: "Linux:" before a command labels it, under the sentence that
    // introduces the command ("Source the setup files:" then the tabs "Linux:", "macOS:"), and
    // before prose it leads the sentence ("Windows: Only for PowerShell users, …"). A label of
    // code no sentence introduces is dropped with it, as code after a heading is.
    if (!listItem && isLabel(line)) {
      let after = index + 1;
      while (after < lines.length && lines[after]?.trim() === '') after += 1;
      const next = lines[after] ?? '';
      if (FENCE.test(next)) {
        if (introducer && introducer.code === undefined) codeLabel = line.slice(0, -1);
        else {
          introducer = undefined;
          tabLabel = line.slice(0, -1);
        }
        continue;
      }
      if (next !== '' && !LIST_ITEM.test(next) && !HEADING.test(next) && !/^\s*\|/.test(next)) {
        lead = line;
        continue;
      }
    }
    const led = lead === undefined ? line : `${lead} ${line}`;
    lead = undefined;
    // Prose ends the tab set.
    tabSet = undefined;
    const parts = listItem ? [led] : led.split(/(?<=[.!?])\s+(?=["'(A-Z0-9])/);
    for (const part of parts) {
      const sentence = part.trim();
      if (sentence.length < 3) continue;
      introducer = {
        text: sentence,
        position: out.length,
        listItem,
        step,
        ...(indent > 0 ? { indent } : {}),
        ...(tableRow ? { tableRow } : {}),
      };
      out.push(introducer);
    }
  }
  return out;
}
