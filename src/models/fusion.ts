/** The RRF constant of Cormack et al. (2009); larger values flatten the head of each list. */
export const DEFAULT_RRF_K = 60;

/** One fused item: the first occurrence of the item, its fused score and its rank in each list. */
export interface FusedItem<T> {
  item: T;
  score: number;
  /** 1-based rank in each input list, undefined where the item is absent. */
  ranks: Array<number | undefined>;
}

/** The identity of an item: its `id` when it has one, else its source, section and text. */
export function defaultFusionKey(item: unknown): string {
  if (typeof item === 'string') return item;
  if (item && typeof item === 'object') {
    const record = item as { id?: unknown; source?: unknown; section?: unknown; text?: unknown };
    if (typeof record.id === 'string' && record.id) return record.id;
    return JSON.stringify([record.source, record.section, record.text]);
  }
  return String(item);
}

/**
 * Reciprocal rank fusion: merges ranked lists (e.g. full-text and vector search) by summing
 * `1 / (k + rank)` for each list an item appears in. Needs no score normalisation, which is why it
 * suits hybrid retrieval. Ties keep the order of first appearance.
 *
 * @example
 * const fused = reciprocalRankFusion([keywordHits, vectorHits]); // fused[0].item is the best chunk
 */
export function reciprocalRankFusion<T>(
  lists: ReadonlyArray<readonly T[]>,
  k: number = DEFAULT_RRF_K,
  keyOf: (item: T) => string = defaultFusionKey,
): Array<FusedItem<T>> {
  const fused = new Map<string, FusedItem<T>>();
  lists.forEach((list, listIndex) => {
    const seen = new Set<string>();
    list.forEach((item, position) => {
      const key = keyOf(item);
      // A duplicate within one list counts once, at its best rank.
      if (seen.has(key)) return;
      seen.add(key);
      let entry = fused.get(key);
      if (!entry) {
        entry = { item, score: 0, ranks: lists.map(() => undefined) };
        fused.set(key, entry);
      }
      entry.ranks[listIndex] = position + 1;
      entry.score += 1 / (k + position + 1);
    });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
