import { createRequire } from 'node:module';
import type { HTMLElement, Node, TextNode } from 'node-html-parser';

const require = createRequire(import.meta.url);
type HtmlParser = typeof import('node-html-parser');
let htmlParser: HtmlParser | undefined;
/** The HTML parser, loaded on first use: importing cohort does not pay for it. */
const loadHtmlParser = (): HtmlParser => (htmlParser ??= require('node-html-parser') as HtmlParser);

/** Elements whose content is never readable text (code, chrome, embedded media). */
const DROPPED = new Set([
  'script',
  'style',
  'nav',
  'noscript',
  'template',
  'svg',
  'iframe',
  'head',
  'form',
  'button',
]);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'blockquote',
  'table',
  'tr',
  'figure',
  'figcaption',
  'dl',
  'dt',
  'dd',
  'ul',
  'ol',
  'br',
  'hr',
  'body',
  'html',
]);

/**
 * Deepest element nesting given to the HTML parser. Its time grows with the square of the depth
 * (160 KB of nested `<div>` took 16 s, blocking the process); real pages stay far below this, and
 * a page nested deeper is read up to the tag that passes it.
 */
const MAX_HTML_DEPTH = 512;
/**
 * Most elements given to the HTML parser. Parsing and rendering cost about 10 µs per element, so
 * the 1.3 million `<p>` of a 5 MB page (web_fetch's cap) blocked the process for 14 s; this many
 * hold far more text than the model is given (`tools.maxOutputChars`), and a page with more is
 * read up to the element that passes it.
 */
export const MAX_HTML_ELEMENTS = 40_000;
/** Elements that never hold children, so never deepen the nesting. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Elements a parser closes by itself when a sibling opens (`<p>a<p>b`): not counted as nesting. */
const SELF_CLOSING_SIBLINGS = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'option',
  'thead',
  'tbody',
  'tfoot',
]);
/** Elements whose content is text, not tags: skipped to their end tag when measuring depth. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*?(\/?)>/g;

/** The page without comments; one never closed runs to the end, as in a browser. */
function withoutComments(html: string): string {
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    const open = html.indexOf('<!--', at);
    if (open < 0) break;
    parts.push(html.slice(at, open));
    const close = html.indexOf('-->', open + 4);
    if (close < 0) return parts.join('');
    at = close + 3;
  }
  parts.push(html.slice(at));
  return parts.join('');
}

/**
 * The part of a page the parser can read in linear time and bounded time: comments removed by one
 * scan (the parser looked for the end of each open comment from every one of them), and the page
 * cut where elements nest deeper than {@link MAX_HTML_DEPTH} or pass {@link MAX_HTML_ELEMENTS}.
 */
function boundHtml(html: string): string {
  const page = withoutComments(html);
  const lower = page.toLowerCase();
  let depth = 0;
  let elements = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(page); match; match = TAG.exec(page)) {
    const [, closing, name = '', selfClosing] = match;
    const tag = name.toLowerCase();
    if (!closing && ++elements > MAX_HTML_ELEMENTS) return page.slice(0, match.index);
    if (SELF_CLOSING_SIBLINGS.has(tag)) continue;
    if (closing) {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (VOID.has(tag) || selfClosing) continue;
    if (RAW_TEXT.has(tag)) {
      const end = lower.indexOf(`</${tag}`, TAG.lastIndex);
      if (end < 0) return page.slice(0, match.index);
      TAG.lastIndex = end;
      continue;
    }
    if (++depth > MAX_HTML_DEPTH) return page.slice(0, match.index);
  }
  return page;
}

/** A page as readable text: its title and a markdown-like body. */
export interface ReadablePage {
  title: string;
  text: string;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ');

function render(node: Node, out: string[], listDepth: number): void {
  if (node.nodeType === loadHtmlParser().NodeType.TEXT_NODE) {
    out.push(collapse((node as TextNode).text));
    return;
  }
  if (node.nodeType !== loadHtmlParser().NodeType.ELEMENT_NODE) return;
  const element = node as HTMLElement;
  const tag = element.tagName?.toLowerCase() ?? '';
  if (DROPPED.has(tag)) return;
  const inline = () => {
    const inner: string[] = [];
    for (const child of element.childNodes) render(child, inner, listDepth);
    return inner
      .join('')
      .replace(/[ \t]*\n[ \t]*/g, ' ')
      .replace(/ {2,}/g, ' ')
      .trim();
  };
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) {
    const text = inline();
    if (text) out.push(`\n\n${'#'.repeat(Number(heading[1]))} ${text}\n\n`);
    return;
  }
  if (tag === 'li') {
    // A nested list is rendered on its own lines, deeper; the rest of the item is one line.
    const isList = (child: Node) =>
      child instanceof loadHtmlParser().HTMLElement &&
      ['ul', 'ol'].includes(child.tagName?.toLowerCase() ?? '');
    const inner: string[] = [];
    for (const child of element.childNodes) if (!isList(child)) render(child, inner, listDepth);
    const text = collapse(inner.join('')).trim();
    if (text) out.push(`\n${'  '.repeat(Math.max(0, listDepth - 1))}- ${text}`);
    for (const child of element.childNodes) if (isList(child)) render(child, out, listDepth);
    return;
  }
  if (tag === 'a') {
    const text = inline();
    const href = element.getAttribute('href');
    out.push(href && /^https?:/i.test(href) && text && text !== href ? `${text} (${href})` : text);
    return;
  }
  if (tag === 'pre') {
    out.push(`\n\n\`\`\`\n${element.textContent.replace(/\n+$/, '')}\n\`\`\`\n\n`);
    return;
  }
  if (tag === 'td' || tag === 'th') {
    out.push(` ${inline()} |`);
    return;
  }
  const nested = tag === 'ul' || tag === 'ol' ? listDepth + 1 : listDepth;
  const block = BLOCKS.has(tag) && !(nested > listDepth && listDepth > 0);
  if (block) out.push('\n\n');
  for (const child of element.childNodes) render(child, out, nested);
  if (block) out.push('\n\n');
}

/**
 * Turns an HTML page into readable text: drops script, style, nav and other chrome; keeps headings
 * (as `#`), paragraphs, lists (as `-`), links (as `text (url)`), code blocks and table cells.
 * Comments are dropped and a page nested deeper than 512 elements, or of more than
 * {@link MAX_HTML_ELEMENTS} elements, is read up to that point, so a hostile page costs bounded time.
 *
 * @example
 * htmlToText('<h1>Intro</h1><p>Hello <a href="https://x.dev">x</a></p>').text;
 * // '# Intro\n\nHello x (https://x.dev)'
 */
export function htmlToText(html: string): ReadablePage {
  const root = loadHtmlParser().parse(boundHtml(html), {
    comment: false,
    blockTextElements: { pre: true, script: false, style: false },
  });
  const title = collapse(root.querySelector('title')?.textContent ?? '').trim();
  const out: string[] = [];
  render(root, out, 0);
  let inCode = false;
  const lines = out
    .join('')
    .split('\n')
    .map((line) => {
      if (line.startsWith('```')) inCode = !inCode;
      if (inCode) return line.trimEnd();
      // Indentation only means something for nested list items.
      return /^\s+- /.test(line) ? line.trimEnd() : line.trim();
    });
  const text = lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, text };
}
