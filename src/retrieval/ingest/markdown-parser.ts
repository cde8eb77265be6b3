import { parseFrontmatter } from '../../config/index.js';
import type { ParsedDocument, Section } from './parsed-document.js';
import { listTableRows } from './rst-parser.js';

/** Deepest heading level that starts a section; `#####` and below stay body text. */
const MAX_SECTION_LEVEL = 4;

/** An ATX heading's marker and the rest of the line; the closing `#`s are cut by {@link headingBody}. */
const HEADING = /^(#{1,6})[ \t]+(.*)$/;
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
/** A MyST `list-table` directive's opening fence, and its title. */
const MYST_LIST_TABLE = /^[ \t]*(`{3,}|~{3,})\s*\{list-table\}(.*)$/;
const MDX_IMPORT_EXPORT = /^(import|export)\s/;
/** A line made only of tags (`<Tabs>`, `</TabItem>`, `<Image src="x" />`) or an MDX comment. */
const JSX_ONLY = /^\s*(?:(?:<\/?[A-Za-z][^<>]*>|\{\/\*(?:[^*]|\*(?!\/\}))*\*\/\})\s*)+$/;
const ADMONITION = /^\s*:::\s*\w*/;

/** `line` without trailing spaces and tabs, in one pass (a `/[ \t]+$/` regex is quadratic on long blank runs). */
function trimTrailingBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return line.slice(0, end);
}

/** An ATX heading's text without its optional closing `#` sequence (CommonMark). */
function headingBody(rest: string): string {
  const text = trimTrailingBlanks(rest);
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) return '';
  return end < text.length && (text[end - 1] === ' ' || text[end - 1] === '\t')
    ? trimTrailingBlanks(text.slice(0, end))
    : text;
}

// Link text and URLs stop at the next bracket or parenthesis, so no two attempts scan the same
// characters: the rules stay linear however many `[` or `](` a line holds.
const IMAGE = /!\[([^[\]]*)\]\([^()]*\)/g;
const LINK = /\[([^[\]]+)\]\([^()]*\)/g;
const TAG = /<\/?[A-Za-z][^<>]*>/g;

/** Turns inline markdown into readable text: links and images keep their words, not their URLs. */
function inlineText(line: string): string {
  return trimTrailingBlanks(line.replace(IMAGE, '$1').replace(LINK, '$1').replace(TAG, ' '));
}

/** Heading text without markdown emphasis, anchors (`{#id}`) or trailing colons. */
function headingText(raw: string): string {
  return inlineText(raw)
    .replace(/\{#[^{}]*\}\s*$/, '')
    .replace(/[*_`]/g, '')
    .trim();
}

const stringField = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * Parses Markdown or MDX into heading sections. The title comes from frontmatter `title`, then
 * `sidebar_label`, then the first `#` heading, then `fallbackTitle`; frontmatter `slug` and `url`
 * (where the page is published) are kept as `link`. Headings `#`..`####` build the
 * heading path; MDX import/export and tag-only lines are dropped; code blocks and tables stay as text.
 *
 * @example
 * const doc = parseMarkdown('# Nodes\n\nA node is a process.', 'nodes.md');
 * // doc.sections[0] → { headingPath: ['Nodes'], text: 'A node is a process.', line: 1 }
 */
export function parseMarkdown(source: string, file?: string, fallbackTitle = ''): ParsedDocument {
  const { data, body } = parseFrontmatter(source, file);
  const offset = source.replace(/^\uFEFF/, '').split('\n').length - body.split('\n').length;
  const lines = body.split(/\r?\n/);
  const stack: (string | undefined)[] = [];
  const raw: { headings: (string | undefined)[]; lines: string[]; line: number }[] = [];
  let current = { headings: [] as (string | undefined)[], lines: [] as string[], line: offset + 1 };
  raw.push(current);
  let fence: string | undefined;
  let firstH1: string | undefined;

  // A MyST list-table being read (its fence and body), written out as a table when it closes.
  let table: { fence: string; body: string[] } | undefined;

  lines.forEach((line, index) => {
    const fenceMatch = FENCE.exec(line);
    if (table !== undefined) {
      const closes =
        fenceMatch !== null &&
        fenceMatch[1]?.[0] === table.fence[0] &&
        (fenceMatch[1]?.length ?? 0) >= table.fence.length &&
        line.trim() === fenceMatch[1];
      if (closes) {
        current.lines.push('', ...listTableRows(table.body), '');
        table = undefined;
      } else table.body.push(line);
      return;
    }
    // "```{list-table} Title": MyST's list-table is a table, as reStructuredText's is.
    const myst = MYST_LIST_TABLE.exec(line);
    if (fence === undefined && myst) {
      table = { fence: myst[1] ?? '```', body: [] };
      if (myst[2]?.trim()) current.lines.push(inlineText(myst[2].trim()));
      return;
    }
    if (fence !== undefined) {
      current.lines.push(line);
      if (
        fenceMatch &&
        fenceMatch[1]?.[0] === fence[0] &&
        (fenceMatch[1]?.length ?? 0) >= fence.length
      ) {
        fence = undefined;
      }
      return;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      current.lines.push(line);
      return;
    }
    const heading = HEADING.exec(line);
    if (heading && (heading[1]?.length ?? 7) <= MAX_SECTION_LEVEL) {
      const level = heading[1]?.length ?? 1;
      const text = headingText(headingBody(heading[2] ?? ''));
      if (level === 1 && firstH1 === undefined) firstH1 = text;
      stack.length = level;
      stack[level - 1] = text;
      current = { headings: [...stack], lines: [], line: offset + index + 1 };
      raw.push(current);
      return;
    }
    if (MDX_IMPORT_EXPORT.test(line) || JSX_ONLY.test(line) || ADMONITION.test(line)) return;
    current.lines.push(inlineText(line));
  });

  const title =
    stringField(data.title) ?? stringField(data.sidebar_label) ?? firstH1 ?? fallbackTitle;
  const sections: Section[] = [];
  for (const part of raw) {
    const text = part.lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    const headings = part.headings.slice(1).filter((h): h is string => Boolean(h));
    const top = part.headings[0] ?? title;
    const headingPath = top ? [top, ...headings] : headings;
    if (text === '' && part.headings.length === 0) continue;
    sections.push({ headingPath, text, line: part.line });
  }
  const slug = stringField(data.slug);
  const url = stringField(data.url);
  const link = { ...(slug ? { slug } : {}), ...(url ? { url } : {}) };
  return { title, sections, ...(slug || url ? { link } : {}) };
}
