/**
 * A map from pairs of small non-negative integers to non-negative integers, in one typed array
 * (open addressing, linear probing): what routing's hot path looks up for every pair of adjacent
 * words (a bigram feature's id, an arbiter pair's weights) by the numbers of the two words,
 * instead of a `Map` of strings per word. A lookup reads one or two neighbouring slots of one
 * array; a `Map` lookup reads the map, its table and the key string to compare, and in the server,
 * where other work evicts them from the processor's caches between routes, each is a trip to
 * memory.
 *
 * @example
 * const table = new PairTable();
 * table.set(3, 7, 42);
 * table.get(3, 7); // 42
 * table.get(7, 3); // -1
 */
export class PairTable {
  // Slot i is entries[3i..3i+2]: first, second, value; first is -1 in an empty slot.
  private entries: Int32Array;
  private mask: number;
  /** Pairs held. */
  size = 0;

  constructor(capacity = 64) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.entries = new Int32Array(slots * 3).fill(-1);
    this.mask = slots - 1;
  }

  /** The value of (first, second), or -1 when the pair has none. */
  get(first: number, second: number): number {
    const entries = this.entries;
    const mask = this.mask;
    for (let slot = slotOf(first, second, mask); ; slot = (slot + 1) & mask) {
      const at = slot * 3;
      const held = entries[at]!;
      if (held === first && entries[at + 1] === second) return entries[at + 2]!;
      if (held === -1) return -1;
    }
  }

  /** Gives (first, second) the value `value` (all three non-negative 32-bit integers). */
  set(first: number, second: number, value: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const entries = this.entries;
    const mask = this.mask;
    for (let slot = slotOf(first, second, mask); ; slot = (slot + 1) & mask) {
      const at = slot * 3;
      const held = entries[at]!;
      if (held === first && entries[at + 1] === second) {
        entries[at + 2] = value;
        return;
      }
      if (held === -1) {
        entries[at] = first;
        entries[at + 1] = second;
        entries[at + 2] = value;
        this.size += 1;
        return;
      }
    }
  }

  private grow(): void {
    const old = this.entries;
    this.entries = new Int32Array(old.length * 2).fill(-1);
    this.mask = this.mask * 2 + 1;
    this.size = 0;
    for (let at = 0; at < old.length; at += 3)
      if (old[at] !== -1) this.set(old[at]!, old[at + 1]!, old[at + 2]!);
  }
}

// Both numbers mixed (multiplicative hashing, then the high bits folded down), so that pairs
// sharing a word spread over the table.
function slotOf(first: number, second: number, mask: number): number {
  let hash = (Math.imul(first, 0x9e3779b1) + second) | 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  return (hash ^ (hash >>> 13)) & mask;
}
