import { openWordNetLexicon, STOPWORDS, type WordNetLexicon } from '../retrieval/index.js';

let shared: WordNetLexicon | undefined;

/** One WordNet lexicon per process: its index lookups are cached and shared by every request. */
export function englishLexicon(): WordNetLexicon {
  return (shared ??= openWordNetLexicon());
}

/** Edit distance with transpositions (Damerau), stopping early past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j += 1) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] as number[];
    const up = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] ?? 0, ((rows[i - 2] as number[])[j - 2] ?? 0) + 1);
    }
  }
  return (rows[a.length] as number[])[b.length] ?? limit + 1;
}

/** Edits a misspelling may be from the word meant: one below eight letters, two from eight. */
const allowedEdits = (word: string) => (word.length >= 8 ? 2 : 1);

/** Endings a misspelt word may carry ("refactring" is "refactor" + "ing" with one slip). */
const ENDINGS = ['', 's', 'es', 'ed', 'd', 'ing', 'ment', 'ion'];

/**
 * The word of `vocabulary` a misspelt `word` means, or undefined. A word is only read as a
 * misspelling when it is not English: not a WordNet lemma (with its inflections), not a function
 * word, not in `vocabulary`. So "online" stays "online" (it is a word) instead of becoming
 * "inline", and "chance" is never "change"; "refactr", "desgin" and "impelment" are corrected.
 * Code-like tokens (camelCase, digits, dots, underscores) and words under five letters are left
 * alone: too many short words are one edit from each other.
 *
 * @example
 * misspeltWord('desgin', new Set(['design', 'plan'])); // 'design'
 * misspeltWord('online', new Set(['inline'])); // undefined
 */
export function misspeltWord(
  word: string,
  vocabulary: ReadonlySet<string>,
  lexicon: WordNetLexicon = englishLexicon(),
): string | undefined {
  if (!/^[a-z]{5,}$/.test(word) || vocabulary.has(word) || STOPWORDS.has(word)) return undefined;
  if (lexicon.knows(word)) return undefined;
  const limit = allowedEdits(word);
  let best: { known: string; distance: number } | undefined;
  for (const known of vocabulary) {
    if (known.length < 5) continue;
    for (const ending of ENDINGS) {
      if (ending && !word.endsWith(ending)) continue;
      const root = word.slice(0, word.length - ending.length);
      const distance = editDistance(root, known, limit);
      if (distance <= limit && (!best || distance < best.distance)) best = { known, distance };
    }
  }
  return best?.known;
}

/**
 * `text` with each misspelt word replaced by the vocabulary word it means (see
 * {@link misspeltWord}), and the corrections made, for the reason shown to the user.
 *
 * @example
 * correctSpelling('refactr the config loader', new Set(['refactor'])).text; // 'refactor the config loader'
 */
export function correctSpelling(
  text: string,
  vocabulary: ReadonlySet<string>,
  lexicon: WordNetLexicon = englishLexicon(),
): { text: string; corrections: string[] } {
  const corrections: string[] = [];
  const corrected = text.replace(/[\w.'/-]+/g, (written) => {
    // Only plain words: identifiers (userSvc, parse_config, v3, main.js) are code, not typos.
    if (!/^[A-Za-z][a-z]+$/.test(written)) return written;
    const lower = written.toLowerCase();
    const meant = misspeltWord(lower, vocabulary, lexicon);
    if (!meant) return written;
    corrections.push(`${lower} → ${meant}`);
    return meant;
  });
  return { text: corrected, corrections };
}
