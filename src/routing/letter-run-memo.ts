/**
 * Values kept for lowercase ASCII words, found by a run of ASCII letters inside a text, in any
 * case, without cutting the word out of the text: a question's words are looked up before any is
 * needed as a string, and most never are (the question-word reader asks about every short word of
 * every question, and a slice, a lowercase copy and a map lookup of each was a twentieth of
 * routing's time). Bounded: past `limit` words, no more are kept.
 *
 * @example
 * const memo = new LetterRunMemo<number>(100);
 * memo.set('what', 1);
 * memo.get('So WHAT?', 3, 7); // 1
 */
export class LetterRunMemo<T> {
  // Open addressing: a slot holds 1 + the word's number, 0 when empty.
  private slots = new Int32Array(1024);
  private mask = 1023;
  private readonly words: string[] = [];
  private readonly values: T[] = [];
  private readonly hashes: number[] = [];

  constructor(private readonly limit: number) {}

  /** The value kept for `text[from, to)` (ASCII letters) lowercased, or undefined. */
  get(text: string, from: number, to: number): T | undefined {
    const length = to - from;
    for (let slot = runHash(text, from, to) & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return undefined;
      const word = this.words[entry - 1]!;
      if (word.length === length && sameLetters(word, text, from)) return this.values[entry - 1];
    }
  }

  /** Keeps `value` for `word` (lowercase ASCII letters), unless the memo is full. */
  set(word: string, value: T): void {
    if (this.words.length >= this.limit) return;
    if ((this.words.length + 1) * 2 > this.mask + 1) this.grow();
    const hash = runHash(word, 0, word.length);
    this.words.push(word);
    this.values.push(value);
    this.hashes.push(hash);
    this.place(hash, this.words.length);
  }

  private place(hash: number, entry: number): void {
    let slot = hash & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = entry;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.mask = this.slots.length - 1;
    this.hashes.forEach((hash, i) => this.place(hash, i + 1));
  }
}

// FNV-1a of the run's letters lowercased (ASCII letters: setting 0x20 lowercases a capital).
function runHash(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i += 1)
    hash = Math.imul(hash ^ (text.charCodeAt(i) | 0x20), 0x01000193);
  return hash >>> 0;
}

/** True when `word` (lowercase) is `text`'s letters from `from` on, lowercased. */
function sameLetters(word: string, text: string, from: number): boolean {
  for (let i = 0; i < word.length; i += 1)
    if (word.charCodeAt(i) !== (text.charCodeAt(from + i) | 0x20)) return false;
  return true;
}
