import { hash } from 'node:crypto';
import { isTableRule } from './markdown-table.js';
import type { ParsedDocument, Section } from './parsed-document.js';

/** Longest chunk body, in characters, before a section is split on paragraph boundaries. */
export const MAX_CHUNK_CHARS = 1200;
/** A section body shorter than this is folded into a neighbour instead of standing alone. */
export const MIN_SECTION_CHARS = 80;
/**
 * The last piece of a split section shorter than this takes paragraphs from the piece before it
 * (see {@link splitText}): a lone closing line is no passage of its own.
 */
export const MIN_LAST_PIECE_CHARS = 300;

/** A chunk before domain tagging: everything a `ChunkRecord` holds except its domain. */
export interface DraftChunk {
  id: string;
  source: string;
  ord: number;
  title: string;
  headingPath: string[];
  text: string;
  hash: string;
  metadata: Record<string, unknown>;
}

/**
 * SHA-1 hex digest of `text`: document and chunk hashes. Node's one-shot `hash`, not a `Hash`
 * object per call: an ingestion hashes every chunk (4,341 at the ROS 2 docs), where making the
 * object cost more than hashing the text.
 */
export function sha1(text: string): string {
  return hash('sha1', text, 'hex');
}

const isPrefix = (prefix: string[], path: string[]) =>
  prefix.length < path.length && prefix.every((heading, i) => path[i] === heading);

/** Splits a long body on paragraph boundaries (then lines, then hard cuts) into pieces ≤ `max`. */
export function splitText(text: string, max = MAX_CHUNK_CHARS): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let buffer = '';
  const push = (part: string, separator: string) => {
    if (buffer && buffer.length + separator.length + part.length > max) {
      pieces.push(buffer);
      buffer = '';
    }
    buffer = buffer ? buffer + separator + part : part;
  };
  for (const paragraph of text.split(/\n\s*\n/)) {
    if (paragraph.length <= max) {
      push(paragraph, '\n\n');
      continue;
    }
    const lines = paragraph.split('\n');
    // A table cut across pieces: each piece it goes on in opens with its header row and rule, or
    // its rows there could not be read (which column is a release date, which an end of life).
    const rule = lines.findIndex((line, i) => i > 0 && isTableRule(line));
    const header =
      rule > 0 && /^\s*\|/.test(lines[rule - 1] ?? '') ? lines.slice(rule - 1, rule + 1) : [];
    lines.forEach((line, at) => {
      if (line.length > max) {
        for (let i = 0; i < line.length; i += max) push(line.slice(i, i + max), '');
        return;
      }
      const cut = buffer !== '' && buffer.length + 1 + line.length > max;
      push(line, '\n');
      // Only where it fits: a piece stays within `max` (a long header over long rows does not).
      const labelled = [...header, buffer].join('\n');
      if (cut && header.length > 0 && at > rule && /^\s*\|/.test(line) && labelled.length <= max)
        buffer = labelled;
    });
  }
  if (buffer) pieces.push(buffer);
  balanceLastPiece(pieces, max);
  // A piece keeps its first line's indent: a nested item cut from its list ("  * Automatic" under
  // the QoS policy "Liveliness") is still nested in the next piece.
  return pieces
    .map((piece) => piece.replace(/^(?:[ \t]*\n)+/, '').trimEnd())
    .filter((piece) => piece.trim() !== '');
}

/**
 * Moves whole paragraphs from the end of the second-last piece to the start of the last while the
 * last is shorter than {@link MIN_LAST_PIECE_CHARS} and stays within `max`. Filled greedily, a
 * section cut at 1,200 characters left closing lines alone: "You will then find the logs under
 * ~/my_ros_home/log/.", "As you drive your turtle around you will see the transform change …",
 * which matched questions on their own few words and said nothing without the paragraphs before
 * them. A table's rows cut across pieces (the last opens with its header row) are left as cut.
 */
function balanceLastPiece(pieces: string[], max: number): void {
  while (pieces.length > 1) {
    const last = pieces[pieces.length - 1] as string;
    if (last.length >= MIN_LAST_PIECE_CHARS || /^\s*\|/.test(last)) return;
    const paragraphs = (pieces[pieces.length - 2] as string).split('\n\n');
    const moved = paragraphs.pop();
    if (moved === undefined || paragraphs.length === 0) return;
    if (moved.length + 2 + last.length > max) return;
    pieces[pieces.length - 2] = paragraphs.join('\n\n');
    pieces[pieces.length - 1] = `${moved}\n\n${last}`;
  }
}

/** Folds tiny sections into a neighbour: forward into their first subsection, else back into their parent. */
function foldTinySections(sections: Section[]): Section[] {
  const out: Section[] = [];
  let carry: { heading: string; text: string } | undefined;
  sections.forEach((section, i) => {
    let text = section.text;
    if (carry) {
      text = `${carry.heading}: ${carry.text}\n\n${text}`.trim();
      carry = undefined;
    }
    if (text.length >= MIN_SECTION_CHARS) {
      out.push({ ...section, text });
      return;
    }
    const next = sections[i + 1];
    if (text === '') return;
    if (next && isPrefix(section.headingPath, next.headingPath)) {
      carry = { heading: section.headingPath.at(-1) ?? '', text };
      return;
    }
    const previous = out.at(-1);
    if (previous && isPrefix(previous.headingPath, section.headingPath)) {
      const heading = section.headingPath.at(-1) ?? '';
      if (previous.text.length + text.length < MAX_CHUNK_CHARS) {
        out[out.length - 1] = { ...previous, text: `${previous.text}\n\n${heading}: ${text}` };
        return;
      }
    }
    out.push({ ...section, text });
  });
  return out;
}

/**
 * Cuts a parsed document into chunks: one per heading section, long sections split on paragraph
 * boundaries with the heading path kept, tiny sections folded into a neighbour. Ids and hashes
 * come from the content (sha1 of source, heading path and text), so re-ingesting is stable.
 *
 * @example
 * const chunks = chunkDocument(parseMarkdown(text), 'chapter-02/index.md');
 */
export function chunkDocument(document: ParsedDocument, source: string): DraftChunk[] {
  const chunks: DraftChunk[] = [];
  const seen = new Set<string>();
  for (const section of foldTinySections(document.sections)) {
    const parts = splitText(section.text);
    parts.forEach((text, part) => {
      const hash = sha1(`${source}\u0000${section.headingPath.join('\u0001')}\u0000${text}`);
      // Two identical sections in one file would collide on the primary key; the position breaks the tie.
      const id = seen.has(hash) ? sha1(`${hash}:${chunks.length}`) : hash;
      seen.add(id);
      const metadata: Record<string, unknown> = { line: section.line, ...document.link };
      if (parts.length > 1) Object.assign(metadata, { part: part + 1, parts: parts.length });
      chunks.push({
        id,
        source,
        ord: chunks.length,
        title: document.title,
        headingPath: section.headingPath,
        text,
        hash,
        metadata,
      });
    });
  }
  return chunks;
}
