import type { ChunkRecord } from '../../schema/index.js';
import { QUERY_STOPWORDS, STOPWORDS } from './stopwords.js';
import { stem, tokenize } from './tokenizer.js';

/** What {@link findFullNames} reads of the corpus besides its text. */
export interface FullNameSources {
  /** How many chunks hold `term` (a stemmed token). */
  df(term: string): number;
}

/**
 * A name of the corpus made of a word and a short form in capitals: "macOS", "CentOS",
 * "DensoADAS". The word is three letters or more; "OpenCV" is one too, but the corpus writes
 * "open" alone far more often (see {@link FULL_NAME_SHARE}).
 */
const NAME = /(?<![A-Za-z0-9_])([A-Za-z][a-z]{2,})([A-Z]{2,})s?(?![A-Za-z0-9_])/g;
/** A text with a small letter before a capital may hold a {@link NAME}. */
const MAY_HOLD_NAME = /[a-z][A-Z]/;
/**
 * The share of the chunks writing the word, alone or in the name, that write the name: over the
 * ROS 2 docs "Mac" is in 9 chunks and "macOS" in far more; "Tensor" is beside "TensorRT" about as
 * often as inside it, and "open" is everywhere.
 */
const FULL_NAME_SHARE = 0.8;
/** A name written in fewer chunks than this is no evidence of how the corpus names the thing. */
const MIN_NAME_CHUNKS = 3;

/** Each word a question may write alone, with the corpus's full name for it: `[word, name]`. */
export type FullNames = readonly (readonly [word: string, name: string])[];

/**
 * The corpus's full names for words a question may write alone, where the corpus writes the word
 * mostly as the start of a name ("Can I run Humble on my Mac?" over docs that say "macOS": `mac`
 * → `macos`), sorted by word. Read from the text when the index is built and saved with it, so a
 * ranker loaded from a saved index reads no chunk's text for them.
 *
 * @example
 * findFullNames(chunks, { df: (term) => index.df(term) }); // [['mac', 'macos'], …]
 */
export function findFullNames(chunks: readonly ChunkRecord[], sources: FullNameSources): FullNames {
  const names = new Map<string, Set<string>>();
  for (const chunk of chunks) {
    if (!MAY_HOLD_NAME.test(chunk.text)) continue;
    for (const match of chunk.text.matchAll(NAME)) {
      const word = (match[1] as string).toLowerCase();
      if (STOPWORDS.has(word) || QUERY_STOPWORDS.has(word)) continue;
      let forms = names.get(word);
      if (!forms) names.set(word, (forms = new Set()));
      forms.add(tokenize(match[0])[0] as string);
    }
  }
  const found: [string, string][] = [];
  for (const [word, forms] of names) {
    const alone = sources.df(stem(word));
    let best: { name: string; chunks: number } | undefined;
    for (const name of forms) {
      const holding = sources.df(stem(name));
      if (!best || holding > best.chunks) best = { name, chunks: holding };
    }
    if (!best || best.chunks < MIN_NAME_CHUNKS) continue;
    if (best.chunks >= FULL_NAME_SHARE * (best.chunks + alone)) found.push([word, best.name]);
  }
  return found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The full name for a word a question writes alone ("mac" → "macos"), from the names
 * {@link findFullNames} found: read on the first call.
 */
export function fullNameOf(names: () => FullNames): (word: string) => string | undefined {
  let byWord: Map<string, string> | undefined;
  return (word) => (byWord ??= new Map(names())).get(word);
}
