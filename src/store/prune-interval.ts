/**
 * How many writes (turns saved, runs written) a store bounded to `keep` records lets pass between
 * two deletions of old ones: `most`, or a tenth of the limit when that is smaller, and at least
 * one, so a small limit is never overshot by much. `RunRepo` and `SessionRepo` both prune on it.
 *
 * @example
 * pruneInterval(1000, 100); // 100
 * pruneInterval(50, 100); // 5
 */
export function pruneInterval(keep: number, most: number): number {
  return Math.max(1, Math.min(most, Math.ceil(keep / 10)));
}
