/**
 * The entries `keep` picks, highest `key` first, ties in their given order: what `filter` and a
 * stable `sort` by the key give, by insertion (routing ranks a handful of labels or words on every
 * clause, where calling a comparator through the sort builtin costs more than the ranking).
 *
 * @example
 * rankedBy([{ w: 'a', s: 1 }, { w: 'b', s: 3 }], (e) => e.s); // [{ w: 'b', … }, { w: 'a', … }]
 */
export function rankedBy<T>(
  entries: readonly T[],
  key: (entry: T) => number,
  keep: (entry: T) => boolean = () => true,
): T[] {
  const kept: T[] = [];
  for (const entry of entries) {
    if (!keep(entry)) continue;
    let at = kept.length;
    while (at > 0 && key(entry) > key(kept[at - 1]!)) at -= 1;
    kept.splice(at, 0, entry);
  }
  return kept;
}
