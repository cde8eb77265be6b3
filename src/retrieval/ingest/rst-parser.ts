import type { ParsedDocument, Section } from './parsed-document.js';
import {
  GRID_BORDER,
  SIMPLE_BORDER,
  gridTable,
  gridTableEnd,
  simpleTable,
  simpleTableEnd,
  type TableCells,
} from './rst-tables.js';

/** A line made of one repeated punctuation character: a section adornment (or a transition). */
const ADORNMENT = /^([!-/:-@[-`{-~])\1+[ \t]*$/;
/** A paragraph ending in "::", which an indented literal block follows. */
const LITERAL_MARK = /::\s*$/;
/** An auto-numbered list item ("#. Start a container"). */
const AUTO_NUMBERED = /^(\s*)#\.(\s)/;
const DIRECTIVE = /^(\s*)\.\.\s+([\w:-]+)::(.*)$/;
const EXPLICIT_MARKUP = /^(\s*)\.\.(\s|$)/;
const OPTION_LINE = /^\s*:[\w -]+:(\s.*)?$/;

/**
 * Directives whose content is navigation or markup, not prose: dropped whole. Containers of prose
 * (admonitions, tabs, `only`, `ifconfig`, a figure's caption) are read: a setup page's commands
 * live in its tabs.
 */
const DROPPED_DIRECTIVES = new Set([
  'toctree',
  'redirect-from',
  'contents',
  'image',
  'raw',
  'include',
  'literalinclude',
  'meta',
  'highlight',
  'index',
]);

/**
 * Directives whose argument is a condition or a path, not words (`only:: html`, `ifconfig::
 * version != 'x'`, `figure:: plot.png`): their content is kept, their argument is not.
 */
const CONTENT_ONLY_DIRECTIVES = new Set(['only', 'ifconfig', 'figure', 'tabs']);

/**
 * A tab of a tab set (sphinx-tabs): its label ("Linux", "macOS") leads its content as "Linux:",
 * so a command under it says which system it is for.
 */
const TAB_DIRECTIVES = new Set(['tab', 'group-tab']);

/** How sphinx-tabs names a `code-tab` given only its language. */
const CODE_TAB_LABELS: Record<string, string> = {
  py: 'Python',
  python: 'Python',
  python3: 'Python',
  cpp: 'C++',
  'c++': 'C++',
  c: 'C',
  sh: 'Shell',
  bash: 'Bash',
  console: 'Console',
};

/**
 * Directives whose content is code or a drawing's source: written out as a fenced block, as a
 * Markdown book writes it, so a reader of the passage knows which lines are code (an answer quotes
 * a command as code, not as a sentence ending in a period).
 */
const CODE_DIRECTIVES = new Set([
  'code-block',
  'code',
  'sourcecode',
  'parsed-literal',
  'graphviz',
  'code-tab',
]);

/** Directives whose argument is words worth keeping (an admonition's title), not a language or path. */
const TITLED_DIRECTIVES = new Set(['admonition', 'topic', 'rubric', 'seealso', 'glossary']);

/**
 * The length of `line`'s leading white space (as `\s` reads it). A line starting with a printable
 * ASCII character, most of a book's, is answered without a regex: the parser asks of every line.
 */
const indentOf = (line: string) => {
  const first = line.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return 0;
  return /^\s*/.exec(line)?.[0].length ?? 0;
};

/** Whether `code` is an ASCII punctuation character, as ADORNMENT's first character must be. */
const isPunctuation = (code: number) =>
  (code >= 0x21 && code <= 0x2f) ||
  (code >= 0x3a && code <= 0x40) ||
  (code >= 0x5b && code <= 0x60) ||
  (code >= 0x7b && code <= 0x7e);

/**
 * The character `line` is an adornment of (see ADORNMENT), if it is one. Every line is asked,
 * some of them several times: the expression runs only on a line that opens with two of the same
 * punctuation character, which it needs.
 */
function adornmentOf(line: string): string | undefined {
  const first = line.charCodeAt(0);
  if (line.charCodeAt(1) !== first || !isPunctuation(first) || !ADORNMENT.test(line))
    return undefined;
  return line[0];
}

/** Characters one of which a line holds if {@link rstInlineText} changes it at all. */
const INLINE_MARKUP = /[\\`|]/;

/**
 * Strips inline roles and markup to their text: :doc:`Nodes <../Nodes>` → Nodes, ``code`` → code,
 * `link <https://x>`_ → link; an escaped space ("talker\\ :", which joins markup to what follows)
 * is nothing.
 */
export function rstInlineText(line: string): string {
  // Every replacement below needs a backslash, a backquote or a bar; most prose lines have none.
  if (!INLINE_MARKUP.test(line)) return line;
  return line
    .replace(/\\ /g, '')
    .replace(/:[\w:+.-]{1,64}:`([^`]*)`/g, (_, inner: string) => stripTarget(inner))
    .replace(/``([^`]+)``/g, '$1')
    .replace(/`([^`]+)`__?/g, (_, inner: string) => stripTarget(inner))
    .replace(/`([^`]+)`/g, (_, inner: string) => stripTarget(inner))
    .replace(/\|(\w[\w -]{0,63})\|/g, '$1');
}

/**
 * `Label <target>` → `Label`. Found by index, as the regex it replaces is quadratic on many `<`:
 * the target is the first `<` after the last `>` but one, running to the final `>`.
 */
function stripTarget(inner: string): string {
  let text = inner;
  if (inner.endsWith('>')) {
    const open = inner.indexOf('<', inner.lastIndexOf('>', inner.length - 2) + 1);
    const label = open >= 0 && open < inner.length - 1 ? inner.slice(0, open).trimEnd() : '';
    if (label.trim()) text = label;
  }
  return text.replace(/^[~!]/, '');
}

/**
 * Parses reStructuredText into heading sections. A title is a text line underlined (and optionally
 * overlined) with a punctuation run at least as long as the text; the order in which adornment
 * styles first appear sets the levels. Directive option lines (`:maxdepth:`) are dropped,
 * directive content is kept, and roles are reduced to their text.
 *
 * @example
 * const doc = parseRst('Topics\n======\n\nTopics carry messages.\n');
 * // doc.title → 'Topics'; doc.sections[0].headingPath → ['Topics']
 */
export function parseRst(source: string, fallbackTitle = ''): ParsedDocument {
  const unmarked = source.replace(/^\uFEFF/, '');
  // Split by a string, not an expression, when no line ends in "\r\n" (the same lines).
  const lines = unmarked.includes('\r') ? unmarked.split(/\r?\n/) : unmarked.split('\n');
  const images = imageSubstitutions(lines);
  const styles: string[] = [];
  const stack: string[] = [];
  const sections: Section[] = [];
  let current: { path: string[]; lines: string[]; line: number } = { path: [], lines: [], line: 1 };
  const flush = () => {
    const text = current.lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (text !== '' || current.path.length > 0) {
      sections.push({ headingPath: current.path, text, line: current.line });
    }
  };
  /** Indentation of the directive or comment block being dropped, or of an options block. */
  let skipIndent: number | undefined;
  let optionIndent: number | undefined;
  /** The code block being read (a code directive or a literal block after "::"), and its indent. */
  let code: { indent: number; lines: string[] } | undefined;
  /** Indent of a paragraph ending in "::": an indented block after it is a literal (code) block. */
  let literalAfter: number | undefined;
  /**
   * The directives whose content is being read (a note, a tab), innermost last: the indent of each
   * and of its content, whose margin is taken off the prose lines read in it.
   */
  const containers: { indent: number; margin?: number }[] = [];
  const closeCode = () => {
    if (!code) return;
    const body = code.lines.slice();
    while (body.length > 0 && body.at(-1)?.trim() === '') body.pop();
    while (body.length > 0 && body[0]?.trim() === '') body.shift();
    const margin = Math.min(...body.filter((l) => l.trim() !== '').map(indentOf));
    if (body.length > 0)
      current.lines.push('', '```', ...body.map((l) => l.slice(margin)), '```', '');
    code = undefined;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = lines[i + 1] ?? '';
    const after = lines[i + 2] ?? '';
    // Asked of each line several times below: worked out once.
    const blank = line.trim() === '';
    const indent = indentOf(line);
    // The line's first character after its indent: each expression below that opens with white
    // space then a given character runs only on a line where that character is there.
    const first = line.charCodeAt(indent);

    if (skipIndent !== undefined) {
      if (blank || indent > skipIndent) continue;
      skipIndent = undefined;
    }
    if (optionIndent !== undefined) {
      if (!blank && indent > optionIndent && OPTION_LINE.test(line)) continue;
      optionIndent = undefined;
    }
    if (literalAfter !== undefined && !blank) {
      if (indent > literalAfter) code = { indent: literalAfter, lines: [] };
      literalAfter = undefined;
    }
    if (code) {
      if (blank || indent > code.indent) {
        code.lines.push(line.trimEnd());
        continue;
      }
      closeCode();
    }
    if (!blank) {
      while (containers.length > 0 && indent <= (containers.at(-1)?.indent ?? 0)) containers.pop();
      const inner = containers.at(-1);
      if (inner && inner.margin === undefined) inner.margin = indent;
    }

    const title = sectionTitle(line, next, after, lines[i - 1]);
    if (title) {
      let level = styles.indexOf(title.style);
      if (level === -1) {
        styles.push(title.style);
        level = styles.length - 1;
      }
      flush();
      stack.length = level;
      stack[level] = title.text;
      current = { path: stack.filter(Boolean), lines: [], line: i + 1 };
      i += title.consumed - 1;
      continue;
    }
    // A drawn table (grid or simple) is written as a Markdown table, as a list-table is: its
    // header row above a rule, each row one line, so an answer can name a cell's column.
    // A simple border no border closes is read as prose (see simpleTableEnd).
    const drawn =
      first === 0x2b && GRID_BORDER.test(line)
        ? 'grid'
        : first === 0x3d && SIMPLE_BORDER.test(line)
          ? 'simple'
          : undefined;
    const end =
      drawn === 'grid'
        ? gridTableEnd(lines, i)
        : drawn === 'simple'
          ? simpleTableEnd(lines, i)
          : undefined;
    if (drawn && end !== undefined) {
      const table = lines.slice(i, end);
      current.lines.push(
        '',
        ...markdownTable(drawn === 'grid' ? gridTable(table) : simpleTable(table)),
        '',
      );
      i = end - 1;
      continue;
    }
    // A lone "::" opens a literal block (it looks like an adornment, but none is two characters).
    if (line.trim() === '::') {
      literalAfter = indent;
      continue;
    }
    if (adornmentOf(line) !== undefined) continue;

    // A directive and explicit markup both open with ".." after the indent.
    const dots = first === 0x2e && line.charCodeAt(indent + 1) === 0x2e;
    const directive = dots ? DIRECTIVE.exec(line) : null;
    if (directive) {
      const indent = directive[1]?.length ?? 0;
      const name = (directive[2] ?? '').toLowerCase().replace(/^\w+:/, '');
      if (DROPPED_DIRECTIVES.has(name)) {
        skipIndent = indent;
        continue;
      }
      const argument = (directive[3] ?? '').trim();
      // A list-table is a table: written as one, its header row is no item and a row's cells
      // stay together ("Find the ROS Boss | The "ROS Boss" is the person in charge …").
      if (name === 'list-table') {
        let end = i + 1;
        while (end < lines.length && (lines[end]?.trim() === '' || indentOf(lines[end]!) > indent))
          end += 1;
        if (argument) current.lines.push('', rstInlineText(argument));
        current.lines.push('', ...listTableRows(lines.slice(i + 1, end), images), '');
        i = end - 1;
        continue;
      }
      optionIndent = indent;
      if (CODE_DIRECTIVES.has(name)) {
        const label = name === 'code-tab' ? codeTabLabel(argument) : '';
        if (label) current.lines.push('', `${label}:`);
        code = { indent, lines: [] };
        continue;
      }
      containers.push({ indent });
      if (TAB_DIRECTIVES.has(name)) {
        if (argument) current.lines.push('', `${rstInlineText(argument)}:`, '');
      } else if (
        argument &&
        !CONTENT_ONLY_DIRECTIVES.has(name) &&
        (TITLED_DIRECTIVES.has(name) || !/^[\w.+-]+$/.test(argument))
      ) {
        current.lines.push(rstInlineText(argument));
      }
      continue;
    }
    const markup = dots ? EXPLICIT_MARKUP.exec(line) : null;
    if (markup) {
      // A comment, a link target (`.. _label:`) or a substitution: none of it is prose.
      skipIndent = markup[1]?.length ?? 0;
      continue;
    }
    const literalMark = line.includes('::') && LITERAL_MARK.test(line);
    if (literalMark) literalAfter = indent;
    // "Run the command::" reads "Run the command:". Inside a directive the line loses the
    // directive's margin: a tab's or a note's prose reads as the page's.
    const margin = Math.min(indent, containers.at(-1)?.margin ?? 0);
    // "#. Start a container" is an auto-numbered list item: written with a number, it reads as
    // a step of a procedure, not as prose starting with "#.".
    let prose = line.slice(margin);
    if (literalMark) prose = prose.replace(LITERAL_MARK, ':');
    if (prose.includes('#.')) prose = prose.replace(AUTO_NUMBERED, '$11.$2');
    current.lines.push(rstInlineText(prose).trimEnd());
  }
  closeCode();
  flush();

  const title = sections.find((s) => s.headingPath.length > 0)?.headingPath[0] ?? fallbackTitle;
  const withTitle = sections.map((s) =>
    s.headingPath.length === 0 ? { ...s, headingPath: title ? [title] : [] } : s,
  );
  return { title, sections: withTitle };
}

/**
 * A `list-table`'s body (its options and its rows, `* - cell` then `  - cell`) as a Markdown
 * table: the `:header-rows:` rows above a `| --- |` rule, each row one line with its cells in
 * order. A cell's lines, and the items of a list inside it, are joined into one.
 *
 * @example
 * listTableRows(['   :header-rows: 1', '', '   * - Name', '     - Status', '   * - Fast DDS', '     - Full support']);
 * // ['| Name | Status |', '| --- | --- |', '| Fast DDS | Full support |']
 */
export function listTableRows(
  body: readonly string[],
  images: ReadonlySet<string> = new Set(),
): string[] {
  let headerRows = 0;
  const rows: string[][] = [];
  let cellIndent: number | undefined;
  for (const line of body) {
    if (line.trim() === '') continue;
    const header = /^\s*:header-rows:\s*(\d+)/.exec(line);
    if (header) {
      headerRows = Number(header[1]);
      continue;
    }
    if (rows.length === 0 && OPTION_LINE.test(line)) continue;
    // A cell that is only an image ("|jazzy|", a logo) has no words: quoted, it read "Logo: jazzy".
    const pictureless = (cell: string) => {
      const image = /^\|([^|]+)\|$/.exec(cell.trim());
      return image && images.has(image[1] ?? '') ? '' : unbulleted(cell);
    };
    const row = /^(\s*)\*\s+-(?:\s+(.*))?$/.exec(line);
    if (row) {
      rows.push([pictureless(row[2] ?? '')]);
      cellIndent = (row[1]?.length ?? 0) + 2;
      continue;
    }
    const cell = /^(\s*)-(?:\s+(.*))?$/.exec(line);
    const last = rows.at(-1);
    if (!last) continue;
    if (cell && (cell[1]?.length ?? 0) === cellIndent) last.push(pictureless(cell[2] ?? ''));
    else last[last.length - 1] = `${last.at(-1)} ${unbulleted(line.trim())}`;
  }
  return markdownTable({ rows, headerRows });
}

/**
 * A table's rows as Markdown table lines, its inline markup read: the header rows above a
 * `| --- |` rule, each row one line with its cells in order.
 */
function markdownTable({ rows, headerRows }: TableCells): string[] {
  const written = (cells: readonly string[]) =>
    `| ${cells.map((cell) => rstInlineText(cell.trim()).replace(/\|/g, '/')).join(' | ')} |`;
  const width = Math.max(0, ...rows.map((cells) => cells.length));
  const out = rows.map(written);
  if (headerRows > 0 && headerRows <= rows.length)
    out.splice(headerRows, 0, `| ${Array.from({ length: width }, () => '---').join(' | ')} |`);
  return out;
}

/** The names of a file's image substitutions (`.. |jazzy| image:: jazzy-small.png`). */
function imageSubstitutions(lines: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const line of lines) {
    if (!line.includes('image::')) continue;
    const definition = /^\s*\.\.\s+\|([^|]+)\|\s+image::/.exec(line);
    if (definition?.[1]) names.add(definition[1]);
  }
  return names;
}

/** A cell's line without the bullet or number of a list inside the cell. */
const unbulleted = (line: string) => line.replace(/^(?:[-*+]|#\.|\d+\.)\s+/, '');

/** The label of a `code-tab`: the words after its language, else the language's usual name. */
function codeTabLabel(argument: string): string {
  const [language = '', ...label] = argument.split(/\s+/);
  if (label.length > 0) return rstInlineText(label.join(' '));
  return CODE_TAB_LABELS[language.toLowerCase()] ?? language;
}

/** Recognises a section title at `line` (underline, or overline + title + underline). */
function sectionTitle(
  line: string,
  next: string,
  after: string,
  previous: string | undefined,
): { text: string; style: string; consumed: number } | undefined {
  const over = adornmentOf(line);
  if (over !== undefined && next.trim() !== '' && adornmentOf(next) === undefined) {
    const under = adornmentOf(after);
    const text = next.trim();
    if (under === over && after.trim().length >= text.length) {
      return { text: rstInlineText(text), style: `${over}o`, consumed: 3 };
    }
  }
  if (line.trim() === '' || /^\s/.test(line) || over !== undefined) return undefined;
  if (previous !== undefined && previous.trim() !== '' && adornmentOf(previous) === undefined)
    return undefined;
  const under = adornmentOf(next);
  if (under === undefined || next.trim().length < line.trim().length) return undefined;
  return { text: rstInlineText(line.trim()), style: `${under}u`, consumed: 2 };
}
