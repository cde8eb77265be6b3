import type { ChunkRecord } from '../../src/schema/index.js';
import { STOPWORDS } from '../../src/retrieval/rank/stopwords.js';
import { stem, tokenize } from '../../src/retrieval/rank/tokenizer.js';
import type { WordNet } from '../../src/retrieval/rank/wordnet.js';

/** Options of {@link expandDocuments}. */
export interface DocumentExpansionOptions {
  /** Distinctive body words (highest tf·idf) expanded per chunk, besides its heading words. */
  bodyWords?: number;
  /** Expansion terms kept only if at most this share of chunks already use them: common words add noise. */
  maxCorpusShare?: number;
  /** Expansion terms given to more than this share of chunks are dropped: they no longer tell chunks apart. */
  maxExpansionShare?: number;
  /** Weight of a definition word against a synonym's 1. */
  definitionWeight?: number;
}

/**
 * Defaults of {@link DocumentExpansionOptions}, measured on the book's paraphrase sets: heading
 * synonyms only. Body words and definition words (WordNet's first senses, which are often not the
 * book's: "gap" → "breach", "node" → "nod") added more noise than matches and cost build time.
 */
export const DEFAULT_DOCUMENT_EXPANSION: Required<DocumentExpansionOptions> = {
  bodyWords: 0,
  maxCorpusShare: 0.02,
  maxExpansionShare: 0.02,
  definitionWeight: 0,
};

/** Words WordNet can look up: plain letters, long enough to carry a topic. */
const WORD = /^[a-z]{3,}$/;

/** Surface words of a text by stem, so a distinctive stem can be looked up as a real word. */
function surfaceWords(text: string, into: Map<string, { word: string; count: number }>) {
  for (const token of tokenize(text)) {
    if (!WORD.test(token) || STOPWORDS.has(token)) continue;
    const key = stem(token);
    const entry = into.get(key);
    if (entry) entry.count += 1;
    else into.set(key, { word: token, count: 1 });
  }
}

/**
 * Document-side expansion: for each chunk, WordNet synonyms and definition words of its heading
 * words and of its most distinctive body words, as stemmed terms with weights, to index in a
 * low-weight field. A student's paraphrase often uses a dictionary's words for the passage's
 * topic, which query-side expansion of the student's own (vaguer) words does not reach.
 *
 * @example
 * const extra = expandDocuments(chunks, openWordNet());
 * buildLexicalIndex(chunks, { fields: DEFAULT_FIELD_WEIGHTS, expansion: { terms: extra } });
 */
export function expandDocuments(
  chunks: readonly ChunkRecord[],
  wordnet: WordNet,
  options: DocumentExpansionOptions = {},
): Map<string, number>[] {
  const { bodyWords, maxCorpusShare, maxExpansionShare, definitionWeight } = {
    ...DEFAULT_DOCUMENT_EXPANSION,
    ...options,
  };
  const words = chunks.map((chunk) => {
    const body = new Map<string, { word: string; count: number }>();
    surfaceWords(`${chunk.headingPath.slice(1).join('\n')}\n${chunk.text}`, body);
    const heading = new Map<string, { word: string; count: number }>();
    surfaceWords(chunk.headingPath.at(-1) ?? chunk.title, heading);
    return { body, heading };
  });
  const df = new Map<string, number>();
  for (const { body } of words)
    for (const term of body.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const size = chunks.length;
  const idf = (term: string) => Math.log(1 + size / (1 + (df.get(term) ?? 0)));
  const maxDf = Math.max(1, maxCorpusShare * size);

  const expansions = words.map(({ body, heading }) => {
    const sources = new Set([...heading.values()].map((entry) => entry.word));
    const distinctive = (bodyWords > 0 ? [...body] : [])
      .filter(([term]) => !heading.has(term))
      .sort((a, b) => b[1].count * idf(b[0]) - a[1].count * idf(a[0]))
      .slice(0, bodyWords);
    for (const [, entry] of distinctive) sources.add(entry.word);
    const terms = new Map<string, number>();
    const add = (lemma: string, weight: number) => {
      if (!WORD.test(lemma) || STOPWORDS.has(lemma)) return;
      const term = stem(lemma);
      if (body.has(term) || (df.get(term) ?? 0) > maxDf) return;
      terms.set(term, Math.max(terms.get(term) ?? 0, weight));
    };
    for (const word of sources) {
      const { synonyms, definitions } = wordnet.relations(word);
      for (const lemma of synonyms) add(lemma, 1);
      if (definitionWeight > 0) for (const lemma of definitions) add(lemma, definitionWeight);
    }
    return terms;
  });

  // A term handed to many chunks (a gloss's "part", "make") is noise, however rare in the text.
  const given = new Map<string, number>();
  for (const terms of expansions)
    for (const term of terms.keys()) given.set(term, (given.get(term) ?? 0) + 1);
  const maxGiven = Math.max(1, maxExpansionShare * size);
  for (const terms of expansions)
    for (const term of terms.keys()) if ((given.get(term) ?? 0) > maxGiven) terms.delete(term);
  return expansions;
}
