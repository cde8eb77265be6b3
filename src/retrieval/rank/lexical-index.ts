import type { ChunkRecord } from '../../schema/index.js';
import { analyze } from './tokenizer.js';

/** BM25 saturation: how fast repeated occurrences stop adding to a term's weight. */
export const BM25_K1 = 1.2;

/** How one field of a chunk counts: its weight and how much its length normalises it (BM25F). */
export interface FieldWeight {
  weight: number;
  b: number;
}

/** Field weights: a match in a heading says more about a section than one in its body. */
export interface FieldWeights {
  title: FieldWeight;
  headings: FieldWeight;
  body: FieldWeight;
}

/** BM25F weights used when field weighting is on. */
export const DEFAULT_FIELD_WEIGHTS: FieldWeights = {
  title: { weight: 1, b: 0.75 },
  headings: { weight: 1.5, b: 0.75 },
  body: { weight: 1, b: 0.75 },
};

/** Options of {@link buildLexicalIndex}. */
export interface LexicalIndexOptions {
  /** BM25F field weights; unset indexes title, headings and body as one plain BM25 field. */
  fields?: FieldWeights;
  /** Also index adjacent term pairs, so phrase matches ("zero moment") score above scattered words. */
  bigrams?: boolean;
  /**
   * Document-side expansion: per chunk, stemmed terms with weights (see `expandDocuments`), indexed
   * as one more field of weight {@link EXPANSION_FIELD_WEIGHT}. Never read by `termVector`.
   */
  expansion?: readonly ReadonlyMap<string, number>[];
}

/** The expansion field: a dictionary's word for a topic is a hint, worth well under a body word. */
export const EXPANSION_FIELD_WEIGHT: FieldWeight = { weight: 0.3, b: 0.5 };

/** A term's postings: chunk numbers and the saturated BM25(F) term weight in each. */
interface Postings {
  docs: Int32Array;
  weights: Float32Array;
}

/** An inverted index over chunks with precomputed BM25(F) weights, and per-chunk term vectors. */
export interface LexicalIndex {
  readonly chunks: readonly ChunkRecord[];
  readonly size: number;
  readonly bigrams: boolean;
  /** Number of chunks containing `term`. */
  df(term: string): number;
  /** BM25 inverse document frequency; a term absent from the corpus gets the highest idf. */
  idf(term: string): number;
  /**
   * Adds `weight × idf × saturated tf` of each term to `scores` for every chunk that holds it (and
   * that `mask` allows); returns the chunk numbers touched for the first time.
   */
  accumulate(terms: Map<string, number>, scores: Float64Array, mask?: Uint8Array): number[];
  /** Unigram term frequencies of one chunk (headings and body) for feedback, and its length. */
  termVector(doc: number): { terms: string[]; counts: Float32Array; length: number };
}

const pairs = (tokens: string[]) => tokens.slice(1).map((token, i) => `${tokens[i]} ${token}`);

/** Text of a chunk's title field: its document title and top heading, once each. */
function titleText(chunk: ChunkRecord): string {
  const top = chunk.headingPath[0];
  return top && top !== chunk.title ? `${chunk.title}\n${top}` : chunk.title;
}

/**
 * Builds the in-memory index: postings as typed arrays with the BM25F length normalisation folded
 * in at build time, so a query only sums precomputed weights.
 *
 * @example
 * const index = buildLexicalIndex(await store.chunks.all(), { fields: DEFAULT_FIELD_WEIGHTS });
 */
export function buildLexicalIndex(
  chunks: readonly ChunkRecord[],
  options: LexicalIndexOptions = {},
): LexicalIndex {
  const fieldWeights: FieldWeight[] = options.fields
    ? [options.fields.title, options.fields.headings, options.fields.body]
    : [{ weight: 1, b: 0.75 }];
  const expansionField = options.expansion ? fieldWeights.length : -1;
  if (options.expansion) fieldWeights.push(EXPANSION_FIELD_WEIGHT);
  const fieldCount = fieldWeights.length;
  const vocabulary = new Map<string, number>();
  const termNames: string[] = [];
  const perDocCounts: Map<number, Float64Array>[] = [];
  const lengths = chunks.map(() => new Float64Array(fieldCount));
  const totals = new Float64Array(fieldCount);
  const vectors: { ids: Int32Array; counts: Float32Array; length: number }[] = [];
  /** The term's id, adding it to the vocabulary on first sight. */
  const termId = (term: string): number => {
    let id = vocabulary.get(term);
    if (id === undefined) {
      id = termNames.length;
      vocabulary.set(term, id);
      termNames.push(term);
    }
    return id;
  };
  /** A document's per-field counts of one term. */
  const countsRow = (counts: Map<number, Float64Array>, id: number): Float64Array => {
    let row = counts.get(id);
    if (!row) counts.set(id, (row = new Float64Array(fieldCount)));
    return row;
  };

  chunks.forEach((chunk, doc) => {
    const texts = [titleText(chunk), chunk.headingPath.slice(1).join('\n'), chunk.text];
    const fieldTokens = options.fields
      ? texts.map((text) => analyze(text))
      : [analyze(texts.join('\n'))];
    const counts = new Map<number, Float64Array>();
    const unigram = new Map<number, number>();
    fieldTokens.forEach((tokens, field) => {
      const terms = options.bigrams ? [...tokens, ...pairs(tokens)] : tokens;
      (lengths[doc] as Float64Array)[field] = tokens.length;
      totals[field] = (totals[field] ?? 0) + tokens.length;
      for (const term of terms) {
        const row = countsRow(counts, termId(term));
        row[field] = (row[field] ?? 0) + 1;
      }
      // The title is shared by every chunk of a file, so feedback reads headings and body only.
      if (field > 0 || !options.fields) {
        for (const term of tokens) {
          const id = vocabulary.get(term) as number;
          unigram.set(id, (unigram.get(id) ?? 0) + 1);
        }
      }
    });
    const extra = options.expansion?.[doc];
    if (extra) {
      let length = 0;
      for (const [term, weight] of extra) {
        const row = countsRow(counts, termId(term));
        row[expansionField] = (row[expansionField] ?? 0) + weight;
        length += weight;
      }
      (lengths[doc] as Float64Array)[expansionField] = length;
      totals[expansionField] = (totals[expansionField] ?? 0) + length;
    }
    perDocCounts.push(counts);
    const ids = Int32Array.from(unigram.keys());
    vectors.push({
      ids,
      counts: Float32Array.from(unigram.values()),
      length: [...unigram.values()].reduce((a, b) => a + b, 0),
    });
  });

  const averages = Array.from(totals, (total) => Math.max(1, total / Math.max(1, chunks.length)));
  const docLists: number[][] = termNames.map(() => []);
  const weightLists: number[][] = termNames.map(() => []);
  perDocCounts.forEach((counts, doc) => {
    const docLengths = lengths[doc] as Float64Array;
    for (const [id, row] of counts) {
      let tilde = 0;
      for (let field = 0; field < fieldCount; field++) {
        const tf = row[field] ?? 0;
        if (tf === 0) continue;
        const { weight, b } = fieldWeights[field] as FieldWeight;
        const norm = 1 - b + (b * (docLengths[field] ?? 0)) / (averages[field] ?? 1);
        tilde += (weight * tf) / norm;
      }
      (docLists[id] as number[]).push(doc);
      (weightLists[id] as number[]).push(tilde / (BM25_K1 + tilde));
    }
  });
  const postings: Postings[] = docLists.map((docs, id) => ({
    docs: Int32Array.from(docs),
    weights: Float32Array.from(weightLists[id] as number[]),
  }));

  const size = chunks.length;
  const idfOf = (df: number) => Math.log(1 + (size - df + 0.5) / (df + 0.5));
  const df = (term: string) => {
    const id = vocabulary.get(term);
    return id === undefined ? 0 : (postings[id] as Postings).docs.length;
  };

  return {
    chunks,
    size,
    bigrams: Boolean(options.bigrams),
    df,
    idf: (term) => idfOf(df(term)),
    accumulate(terms, scores, mask) {
      const touched: number[] = [];
      for (const [term, weight] of terms) {
        const id = vocabulary.get(term);
        if (id === undefined || weight === 0) continue;
        const list = postings[id] as Postings;
        const factor = weight * idfOf(list.docs.length);
        for (let i = 0; i < list.docs.length; i++) {
          const doc = list.docs[i] as number;
          if (mask && mask[doc] === 0) continue;
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] = (scores[doc] as number) + factor * (list.weights[i] as number);
        }
      }
      return touched;
    },
    termVector(doc) {
      const vector = vectors[doc];
      if (!vector) return { terms: [], counts: new Float32Array(0), length: 0 };
      return {
        terms: Array.from(vector.ids, (id) => termNames[id] as string),
        counts: vector.counts,
        length: vector.length,
      };
    },
  };
}
