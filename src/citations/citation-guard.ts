/**
 * Citation markers: `[3]` or a list `[1, 2]`, of any length (`[999999999999]` names no source
 * either). The space before a marker is found by looking back, not by the pattern: a pattern
 * starting with `\s*` is tried again from every space of a run, and a model's megabyte of spaces
 * then took minutes.
 */
const MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;
/**
 * Most characters held back at the end of a delta: an unclosed `[1, 2` and the spaces before it
 * wait for the next delta, up to this many each. A longer run is released (and so is checked in
 * linear time); a marker split across deltas is still caught up to this length.
 */
const MAX_PENDING_CHARS = 64;
/** A `[n]` right after a word is an index (`arr[1]`), not a citation. */
const WORD_CHAR = /[A-Za-z0-9_]/;
const SPACE = /\s/;
const LIST_CHAR = /[\d,\s]/;

/** Where the part that may still become a marker starts: an unclosed `[1, 2` and the spaces before it. */
function pendingStart(buffer: string): number {
  let start = buffer.length;
  let list = start;
  while (list > 0 && start - list < MAX_PENDING_CHARS && LIST_CHAR.test(buffer[list - 1]!)) list--;
  if (buffer[list - 1] === '[') start = list - 1;
  let space = start;
  while (space > 0 && start - space < MAX_PENDING_CHARS && SPACE.test(buffer[space - 1]!)) space--;
  return space;
}

/** Where the spaces that end `text` start. */
function trailingSpaceStart(text: string): number {
  let start = text.length;
  while (start > 0 && SPACE.test(text[start - 1]!)) start--;
  return start;
}

/**
 * Checks a model's `[n]` citation markers against the sources it was actually given, while the
 * text streams. A marker pointing at no source is removed (with the space before it) and
 * recorded; the rest are renumbered 1, 2, 3… in order of first use, so the text and a Sources
 * footer built from {@link CitationGuard.cited} always agree. `[1, 2]` becomes `[1][2]`.
 */
export interface CitationGuard {
  /** Feeds a text delta; returns the part that is safe to show now. */
  push(delta: string): string;
  /** Returns whatever was held back; call once at the end. */
  flush(): string;
  /** Original source numbers in order of first citation; `cited()[i]` is shown as `[i + 1]`. */
  cited(): number[];
  /** Numbers the model cited that point at no source, in order of first use. */
  ungrounded(): number[];
}

/**
 * Creates a {@link CitationGuard}. `isKnown(n)` says whether source `n` exists when the marker
 * completes (sources retrieved by later tool calls do not make an earlier marker valid).
 *
 * @example
 * const guard = createCitationGuard((n) => n >= 1 && n <= chunks.length);
 * const shown = guard.push('ROS 2 is a framework [7] [2].') + guard.flush(); // 'ROS 2 is a framework [1].'
 */
export function createCitationGuard(isKnown: (n: number) => boolean): CitationGuard {
  let buffer = '';
  let previous = '';
  const renumbered = new Map<number, number>();
  const ungrounded = new Set<number>();

  const rewrite = (text: string): string => {
    if (!text) return text;
    let out = '';
    let last = 0;
    for (const match of text.matchAll(MARKER)) {
      const offset = match.index;
      const space = trailingSpaceStart(text.slice(last, offset)) + last;
      const before = space > 0 ? text[space - 1] : previous;
      out += text.slice(last, offset);
      last = offset + match[0].length;
      if (space === offset && before && WORD_CHAR.test(before)) {
        out += match[0];
        continue;
      }
      const kept: number[] = [];
      for (const item of (match[1] ?? '').split(',')) {
        const n = Number(item.trim());
        if (!isKnown(n)) {
          ungrounded.add(n);
          continue;
        }
        let shown = renumbered.get(n);
        if (shown === undefined) {
          shown = renumbered.size + 1;
          renumbered.set(n, shown);
        }
        kept.push(shown);
      }
      // A marker pointing at no source goes with the space before it.
      if (kept.length === 0) out = out.slice(0, out.length - (offset - space));
      else out += kept.map((n) => `[${n}]`).join('');
    }
    out += text.slice(last);
    previous = text.at(-1) ?? previous;
    return out;
  };

  return {
    push(delta) {
      buffer += delta;
      const cut = pendingStart(buffer);
      const ready = buffer.slice(0, cut);
      buffer = buffer.slice(cut);
      return rewrite(ready);
    },
    flush() {
      const rest = rewrite(buffer);
      buffer = '';
      return rest;
    },
    cited: () => [...renumbered.keys()],
    ungrounded: () => [...ungrounded],
  };
}
