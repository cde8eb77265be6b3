/**
 * Numbers the sources of several parts (agent answers, research findings) as one list: the same
 * source (same `key`) gets one number, numbers run 1, 2, 3… in order of first appearance. Returns
 * the first record of each source, renumbered, and per part how its own numbers map to the new
 * ones (for {@link renumberMarkers}). `merge` updates a kept record when a source appears again.
 *
 * @example
 * const { sources, renumber } = numberSources([a.sources, b.sources], (c) => c.source);
 * const bodyOfB = renumberMarkers(b.body, renumber[1]);
 */
export function numberSources<T extends { index: number }>(
  parts: readonly (readonly T[])[],
  key: (source: T) => string,
  merge?: (kept: T, again: T) => void,
): { sources: T[]; renumber: Map<number, number>[] } {
  const byKey = new Map<string, T>();
  const renumber = parts.map((part) => {
    const map = new Map<number, number>();
    for (const source of part) {
      const k = key(source);
      let kept = byKey.get(k);
      if (!kept) {
        kept = { ...source, index: byKey.size + 1 };
        byKey.set(k, kept);
      } else {
        merge?.(kept, source);
      }
      map.set(source.index, kept.index);
    }
    return map;
  });
  return { sources: [...byKey.values()], renumber };
}
