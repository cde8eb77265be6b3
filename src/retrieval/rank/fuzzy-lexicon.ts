/** Words shorter than this are never corrected: short words collide too easily ("ram" / "rim"). */
export const MIN_FUZZY_LENGTH = 5;

/** A set of known words that can map a misspelt word to the known word it most likely means. */
export interface FuzzyLexicon {
  /** True when `word` is known exactly. */
  has(word: string): boolean;
  /**
   * The known word within one edit (insertion, deletion, substitution or adjacent swap) of `word`,
   * or undefined; a known word returns itself.
   */
  correct(word: string): string | undefined;
  /** How many words are known. */
  readonly size: number;
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i += 1) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/**
 * Builds a lexicon from `words` (each occurrence counts once) and `counted` (word, occurrences) pairs,
 * with a symmetric-deletion index (SymSpell, distance 1): every known word of
 * {@link MIN_FUZZY_LENGTH}+ letters is stored under each of its one-letter deletions, so a lookup
 * costs a handful of map reads instead of an edit distance against every word.
 *
 * @example
 * const lexicon = createFuzzyLexicon(['capstone', 'lifecycle']);
 * lexicon.correct('capston'); // 'capstone'
 */
export function createFuzzyLexicon(
  words: Iterable<string>,
  counted: Iterable<readonly [string, number]> = [],
): FuzzyLexicon {
  // Frequency breaks ties between candidates: the word seen more often is the likelier intent.
  const frequency = new Map<string, number>();
  for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  for (const [word, count] of counted) frequency.set(word, (frequency.get(word) ?? 0) + count);
  // A word within one edit of a known word is at most one letter longer than the longest: a
  // longer one (a 10,000-letter selected_text) is not looked up, whose one-letter deletions cost
  // the square of its length (100 MB of copies, 0.4 s), nor kept in the cache.
  let longest = 0;
  for (const word of frequency.keys()) longest = Math.max(longest, word.length);
  // Built on the first word that is not known exactly: a router's speller over a book's words
  // (12,000 at the ROS 2 docs, 80,000 deletions) is built with the router, and most processes
  // that train or load it never meet a word to correct.
  let deletionIndex: Map<string, string[]> | undefined;
  const byDeletion = (): Map<string, string[]> => {
    if (deletionIndex) return deletionIndex;
    deletionIndex = new Map<string, string[]>();
    for (const word of frequency.keys()) {
      if (word.length < MIN_FUZZY_LENGTH || !/^[a-z]+$/.test(word)) continue;
      for (const variant of new Set(deletions(word))) {
        const list = deletionIndex.get(variant);
        if (list) list.push(word);
        else deletionIndex.set(variant, [word]);
      }
    }
    return deletionIndex;
  };
  const cache = new Map<string, string | null>();

  const best = (candidates: Iterable<string>): string | undefined => {
    let chosen: string | undefined;
    let chosenCount = 0;
    for (const candidate of candidates) {
      const count = frequency.get(candidate) ?? 0;
      if (
        count > chosenCount ||
        (count === chosenCount && chosen !== undefined && candidate < chosen)
      ) {
        chosen = candidate;
        chosenCount = count;
      }
    }
    return chosen;
  };

  const lookup = (word: string): string | undefined => {
    if (frequency.has(word)) return word;
    if (word.length < MIN_FUZZY_LENGTH - 1 || word.length > longest + 1) return undefined;
    if (!/^[a-z]+$/.test(word)) return undefined;
    const candidates = new Set<string>();
    const index = byDeletion();
    // The query lost a letter ("capston" → "capstone").
    for (const known of index.get(word) ?? []) candidates.add(known);
    for (const variant of deletions(word)) {
      // The query gained a letter ("gazeboo" → "gazebo"), also on a known word of four letters
      // ("urrdf" → "urdf", "nodde" → "node"): the typed word has five, long enough to place.
      if (variant.length >= MIN_FUZZY_LENGTH - 1 && frequency.has(variant)) candidates.add(variant);
      // A letter was replaced or two were swapped: both sides share a deletion.
      for (const known of index.get(variant) ?? []) {
        if (known.length === word.length) candidates.add(known);
      }
    }
    return best(candidates);
  };

  return {
    has: (word) => frequency.has(word),
    correct(word) {
      const cached = cache.get(word);
      if (cached !== undefined) return cached ?? undefined;
      const found = lookup(word);
      if (cache.size < 20_000 && word.length <= longest + 1) cache.set(word, found ?? null);
      return found;
    },
    get size() {
      return frequency.size;
    },
  };
}
