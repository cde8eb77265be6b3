import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/**
 * The most of one file a `read` reads: lines past it are not reached (bash's `sed -n` or `tail`
 * are the way there). Reading streams, so this bounds the time one call takes; what it keeps is
 * bounded by the characters one read returns.
 */
export const READ_MAX_BYTES = 256 * 1024 * 1024;

/** Characters a line costs in the answer besides its text: its number, a tab and a line end. */
const NUMBERING_CHARS = 8;
/** Bytes read at a time. */
const CHUNK_BYTES = 64 * 1024;
/** Bytes looked at for a NUL to call a file binary (as before: the first 8,000). */
const BINARY_PROBE_BYTES = 8000;

/** The lines of a window of a file, and what stopped the read short. */
export interface LineWindow {
  /** The lines from `offset`, without their line ends (the last may be cut, see `cut`). */
  lines: string[];
  /**
   * How many lines the file has (a last line without a line end counts, as does the empty one
   * after a final line end), when the read reached the end of the file; undefined otherwise.
   */
  totalLines: number | undefined;
  /** True when the file starts with a NUL in its first 8,000 bytes. */
  binary: boolean;
  /**
   * Why fewer lines (or less of the last one) came back than asked: `chars`, the characters one
   * read returns were reached; `bytes`, {@link READ_MAX_BYTES} were read before the window
   * ended. Undefined when the window is whole.
   */
  cut: 'chars' | 'bytes' | undefined;
}

/**
 * Reads lines `offset` to `offset + limit - 1` (1-based) of an open file by streaming it, never
 * loading it whole: only the chosen lines are decoded and kept, at most `maxChars` characters of
 * them once numbered, and reading stops once they are read (or cut), or after `maxBytes`. The
 * file's line count is given when that read reached its end. Lines are cut as
 * `text.split(/\r?\n/)` cuts them.
 *
 * @example
 * const window = await readLineWindow(handle, { offset: 1, limit: 5, maxChars: 30_000 });
 */
export async function readLineWindow(
  handle: FileHandle,
  options: { offset: number; limit: number; maxChars: number; maxBytes?: number },
): Promise<LineWindow> {
  const maxBytes = options.maxBytes ?? READ_MAX_BYTES;
  const { size } = await handle.stat();
  const first = options.offset;
  const last = options.offset + options.limit - 1;
  const buffer = Buffer.alloc(CHUNK_BYTES);
  const lines: string[] = [];
  let kept = 0; // characters of `lines` once numbered
  let line = 1; // the number of the line being read
  let current = ''; // the text of that line so far, when it is in the window
  let decoder = new StringDecoder('utf8');
  let cut: LineWindow['cut'];
  let position = 0;
  const inWindow = () => line >= first;
  const take = (bytes: Buffer) => {
    current += decoder.write(bytes);
    // Numbered and joined, the lines so far would pass maxChars (the last one has no line end).
    if (kept + NUMBERING_CHARS + current.length > options.maxChars + 1) {
      current = current.slice(0, Math.max(0, options.maxChars + 1 - kept - NUMBERING_CHARS));
      cut = 'chars';
    }
  };
  for (;;) {
    if (position >= maxBytes && position < size) {
      if (inWindow()) lines.push(current + decoder.end());
      return { lines, totalLines: undefined, binary: false, cut: 'bytes' };
    }
    const { bytesRead } = await handle.read(
      buffer,
      0,
      Math.min(CHUNK_BYTES, maxBytes - position),
      position,
    );
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    if (position === 0 && chunk.subarray(0, BINARY_PROBE_BYTES).includes(0))
      return { lines: [], totalLines: undefined, binary: true, cut: undefined };
    position += bytesRead;
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      if (inWindow()) take(chunk.subarray(start, end === -1 ? chunk.length : end));
      if (cut) {
        lines.push(current);
        return { lines, totalLines: undefined, binary: false, cut };
      }
      if (end === -1) break;
      if (inWindow()) {
        const text = current + decoder.end();
        const whole = text.endsWith('\r') ? text.slice(0, -1) : text;
        lines.push(whole);
        kept += NUMBERING_CHARS + whole.length;
      }
      current = '';
      decoder = new StringDecoder('utf8');
      line += 1;
      start = end + 1;
      if (line > last) {
        // The window is read: no more reads. The line count is known only when this chunk ends
        // the file, counting the line ends left in it.
        if (position < size) return { lines, totalLines: undefined, binary: false, cut };
        let more = 0;
        for (let at = chunk.indexOf(10, start); at !== -1; at = chunk.indexOf(10, at + 1))
          more += 1;
        return { lines, totalLines: line + more, binary: false, cut };
      }
    }
  }
  // The end of the file: its last line (empty after a final line end) counts, as split() has it.
  if (inWindow()) lines.push(current + decoder.end());
  return { lines, totalLines: line, binary: false, cut };
}
