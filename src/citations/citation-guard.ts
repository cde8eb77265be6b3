/** Citation markers: `[3]` or a list `[1, 2]`. */
const MARKER = /(\s*)\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
/** What may still become a marker: trailing spaces and an unclosed `[1, 2` (held until the next delta). */
const PENDING_TAIL = /\s*(?:\[[\d,\s]{0,24})?$/;
/** A `[n]` right after a word is an index (`arr[1]`), not a citation. */
const WORD_CHAR = /[A-Za-z0-9_]/;

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
    const out = text.replace(
      MARKER,
      (marker: string, space: string, list: string, offset: number) => {
        const before = offset > 0 ? text[offset - 1] : previous;
        if (!space && before && WORD_CHAR.test(before)) return marker;
        const kept: number[] = [];
        for (const item of list.split(',')) {
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
        return kept.length === 0 ? '' : space + kept.map((n) => `[${n}]`).join('');
      },
    );
    previous = text.at(-1) ?? previous;
    return out;
  };

  return {
    push(delta) {
      buffer += delta;
      const cut = PENDING_TAIL.exec(buffer)?.index ?? buffer.length;
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
