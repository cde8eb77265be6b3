import { CITATION_MARKER } from '../../citations/markers.js';

/** A run of text inside a block; `cite` is a `[n]` marker that opens passage n. */
export type Inline =
  { kind: 'text' | 'strong' | 'em' | 'code'; text: string } | { kind: 'cite'; n: number };

/** A block of an answer: a paragraph, a list, a heading or a rule. */
export type Block =
  | { kind: 'p'; inlines: Inline[] }
  | { kind: 'heading'; inlines: Inline[] }
  | { kind: 'ul'; items: Inline[][] }
  | { kind: 'ol'; items: Inline[][] }
  | { kind: 'rule' };

// Bold, italics, code, then the citation marker exactly as the citations module writes it.
const TOKEN = new RegExp(
  String.raw`\*\*(.+?)\*\*|(?<![\w*])_(?!\s)(.+?)(?<!\s)_(?!\w)|` +
    '`([^`]+)`|' +
    CITATION_MARKER.source,
  'g',
);

/** The inline runs of one line of text: bold, italics, code and `[n]` citation markers. */
export function parseInlines(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const index = match.index ?? 0;
    if (index > last) out.push({ kind: 'text', text: text.slice(last, index) });
    if (match[1] !== undefined) out.push({ kind: 'strong', text: match[1] });
    else if (match[2] !== undefined) out.push({ kind: 'em', text: match[2] });
    else if (match[3] !== undefined) out.push({ kind: 'code', text: match[3] });
    else out.push({ kind: 'cite', n: Number(match[4]) });
    last = index + match[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

/**
 * Parses the small markdown the assistant writes (paragraphs, `-` and `1.` lists, `#` headings,
 * `---`, bold, italics, code, `[n]`) into blocks. It never yields HTML, so answers cannot inject
 * markup into the page.
 *
 * @example
 * parseAnswer('A topic is a channel [1].'); // [{ kind: 'p', inlines: [..., { kind: 'cite', n: 1 }] }]
 */
export function parseAnswer(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0)
      blocks.push({ kind: 'p', inlines: parseInlines(paragraph.join(' ')) });
    paragraph = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const bullet = /^[-*•]\s+(.*)$/.exec(line);
    const numbered = /^\d+[.)]\s+(.*)$/.exec(line);
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (line === '') {
      flush();
    } else if (/^(-{3,}|\*{3,})$/.test(line)) {
      flush();
      blocks.push({ kind: 'rule' });
    } else if (heading?.[1] !== undefined) {
      flush();
      blocks.push({ kind: 'heading', inlines: parseInlines(heading[1]) });
    } else if (bullet?.[1] !== undefined || numbered?.[1] !== undefined) {
      flush();
      const kind = bullet ? 'ul' : 'ol';
      const item = parseInlines((bullet?.[1] ?? numbered?.[1]) as string);
      const previous = blocks.at(-1);
      if (previous?.kind === kind && 'items' in previous) previous.items.push(item);
      else blocks.push({ kind, items: [item] });
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}
