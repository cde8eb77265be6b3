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
    // Moved up past the entries it outranks by hand: `splice` makes an array of the entries it
    // removes (none) on every call.
    let at = kept.length;
    kept.push(entry);
    while (at > 0 && key(entry) > key(kept[at - 1]!)) {
      kept[at] = kept[at - 1]!;
      at -= 1;
    }
    kept[at] = entry;
  }
  return kept;
}
