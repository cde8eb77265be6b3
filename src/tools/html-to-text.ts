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
 *
 * @example
 * htmlToText('<h1>Intro</h1><p>Hello <a href="https://x.dev">x</a></p>').text;
 * // '# Intro\n\nHello x (https://x.dev)'
 */
export function htmlToText(html: string): ReadablePage {
  const root = loadHtmlParser().parse(html, {
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
