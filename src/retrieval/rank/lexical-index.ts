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

/**
 * The built index as flat typed arrays (compressed sparse rows): term `t`'s postings are
 * `postingDocs`/`postingWeights` from `postingStarts[t]` to `postingStarts[t + 1]`, in chunk order;
 * chunk `d`'s unigram vector is `vectorTerms`/`vectorCounts` from `vectorStarts[d]`. A few arrays
 * instead of an object per term keep the heap small at scale, and the whole value can be saved and
 * loaded as bytes.
 */
export interface LexicalIndexData {
  /** Term of each id, in order of first sight. */
  terms: string[];
  postingStarts: Int32Array;
  postingDocs: Int32Array;
  /** The saturated BM25(F) term weight in each posting. */
  postingWeights: Float32Array;
  vectorStarts: Int32Array;
  vectorTerms: Int32Array;
  vectorCounts: Float32Array;
  /** Each chunk's unigram count (headings and body). */
  vectorLengths: Float64Array;
  bigrams: boolean;
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
  /**
   * The chunks holding `term` (ascending) with their saturated tf weights, and the term's idf;
   * undefined for a term absent from the corpus. Views of the index's arrays, not copies.
   */
  postings(term: string): { docs: Int32Array; weights: Float32Array; idf: number } | undefined;
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
  return lexicalIndexFromData(chunks, buildLexicalIndexData(chunks, options));
}

/** A typed array that grows by doubling, for build-time lists of unknown length. */
class GrowingArray<T extends Int32Array | Float64Array> {
  length = 0;
  constructor(
    public items: T,
    private readonly make: (size: number) => T,
  ) {}
  push(value: number): void {
    if (this.length === this.items.length) this.grow(this.length + 1);
    this.items[this.length++] = value;
  }
  /** Makes room for at least `size` items, keeping those there. */
  grow(size: number): void {
    if (size <= this.items.length) return;
    const grown = this.make(Math.max(16, this.items.length * 2, size));
    grown.set(this.items);
    this.items = grown;
  }
}
const growingInts = () => new GrowingArray(new Int32Array(1024), (n) => new Int32Array(n));
const growingFloats = () => new GrowingArray(new Float64Array(1024), (n) => new Float64Array(n));

/**
 * One chunk's counts per term, in the order the chunk first holds each term, with a row of
 * `width` counts per term. Kept in flat arrays reused chunk after chunk, and each term's place
 * found through arrays indexed by term id, where a map and a row array per (chunk, term) made
 * half a million short-lived objects at the ROS 2 docs.
 */
class ChunkCounts {
  /** Term ids, in first-sight order; `size` of them are this chunk's. */
  readonly ids = growingInts();
  /** `width` counts per term, row for row with `ids`. */
  readonly counts = growingFloats();
  size = 0;
  // For each term id: the chunk (plus one) it was last counted in, and its row there.
  private chunkOf = new Int32Array(1024);
  private rowOf = new Int32Array(1024);
  private chunk = 0;
  constructor(private readonly width: number) {}
  /** Starts the next chunk's counts. */
  next(): void {
    this.chunk += 1;
    this.size = 0;
  }
  /** Adds `amount` to term `id`'s count in column `column`. */
  add(id: number, column: number, amount: number): void {
    if (id >= this.chunkOf.length) this.makeRoom(id);
    let row: number;
    if (this.chunkOf[id] === this.chunk) row = this.rowOf[id] as number;
    else {
      row = this.size++;
      this.chunkOf[id] = this.chunk;
      this.rowOf[id] = row;
      this.ids.grow(this.size);
      this.ids.items[row] = id;
      this.counts.grow(this.size * this.width);
      this.counts.items.fill(0, row * this.width, this.size * this.width);
    }
    const at = row * this.width + column;
    this.counts.items[at] = (this.counts.items[at] as number) + amount;
  }
  private makeRoom(id: number): void {
    const size = Math.max(id + 1, this.chunkOf.length * 2);
    const chunkOf = new Int32Array(size);
    chunkOf.set(this.chunkOf);
    this.chunkOf = chunkOf;
    const rowOf = new Int32Array(size);
    rowOf.set(this.rowOf);
    this.rowOf = rowOf;
  }
}

/**
 * Computes the index's arrays. Every build-time list lives in this function's scope only, so none
 * of it stays reachable from the index's methods once the postings are built.
 */
export function buildLexicalIndexData(
  chunks: readonly ChunkRecord[],
  options: LexicalIndexOptions = {},
): LexicalIndexData {
  const fieldWeights: FieldWeight[] = options.fields
    ? [options.fields.title, options.fields.headings, options.fields.body]
    : [{ weight: 1, b: 0.75 }];
  const expansionField = options.expansion ? fieldWeights.length : -1;
  if (options.expansion) fieldWeights.push(EXPANSION_FIELD_WEIGHT);
  const fieldCount = fieldWeights.length;
  const size = chunks.length;
  const vocabulary = new Map<string, number>();
  const terms: string[] = [];
  const lengths = new Float64Array(size * fieldCount);
  const totals = new Float64Array(fieldCount);
  // One entry per (chunk, term): the term, and its count in each field.
  const entryTerms = growingInts();
  const entryCounts = growingFloats();
  const entryStarts = new Int32Array(size + 1);
  const vectorTerms = growingInts();
  const vectorCounts = growingFloats();
  const vectorStarts = new Int32Array(size + 1);
  const vectorLengths = new Float64Array(size);
  /** The term's id, adding it to the vocabulary on first sight. */
  const termId = (term: string): number => {
    let id = vocabulary.get(term);
    if (id === undefined) {
      id = terms.length;
      vocabulary.set(term, id);
      terms.push(term);
    }
    return id;
  };
  // The current chunk's per-field counts of each term, and its unigram counts (one column).
  const counts = new ChunkCounts(fieldCount);
  const unigram = new ChunkCounts(1);

  for (let doc = 0; doc < size; doc++) {
    const chunk = chunks[doc] as ChunkRecord;
    const texts = [titleText(chunk), chunk.headingPath.slice(1).join('\n'), chunk.text];
    const fieldTokens = options.fields
      ? texts.map((text) => analyze(text))
      : [analyze(texts.join('\n'))];
    counts.next();
    unigram.next();
    for (let field = 0; field < fieldTokens.length; field++) {
      const tokens = fieldTokens[field] as string[];
      lengths[doc * fieldCount + field] = tokens.length;
      totals[field] = (totals[field] as number) + tokens.length;
      // The title is shared by every chunk of a file, so feedback reads headings and body only.
      const inVector = field > 0 || !options.fields;
      for (const term of tokens) {
        const id = termId(term);
        counts.add(id, field, 1);
        if (inVector) unigram.add(id, 0, 1);
      }
      if (options.bigrams) for (const pair of pairs(tokens)) counts.add(termId(pair), field, 1);
    }
    const extra = options.expansion?.[doc];
    if (extra) {
      let length = 0;
      for (const [term, weight] of extra) {
        counts.add(termId(term), expansionField, weight);
        length += weight;
      }
      lengths[doc * fieldCount + expansionField] = length;
      totals[expansionField] = (totals[expansionField] as number) + length;
    }
    entryTerms.grow(entryTerms.length + counts.size);
    entryTerms.items.set(counts.ids.items.subarray(0, counts.size), entryTerms.length);
    entryTerms.length += counts.size;
    entryCounts.grow(entryCounts.length + counts.size * fieldCount);
    entryCounts.items.set(
      counts.counts.items.subarray(0, counts.size * fieldCount),
      entryCounts.length,
    );
    entryCounts.length += counts.size * fieldCount;
    entryStarts[doc + 1] = entryTerms.length;
    let length = 0;
    for (let row = 0; row < unigram.size; row++) {
      const count = unigram.counts.items[row] as number;
      vectorTerms.push(unigram.ids.items[row] as number);
      vectorCounts.push(count);
      length += count;
    }
    vectorStarts[doc + 1] = vectorTerms.length;
    vectorLengths[doc] = length;
  }

  const averages = Array.from(totals, (total) => Math.max(1, total / Math.max(1, size)));
  const postingStarts = new Int32Array(terms.length + 1);
  for (let entry = 0; entry < entryTerms.length; entry++) {
    const next = (entryTerms.items[entry] as number) + 1;
    postingStarts[next] = (postingStarts[next] as number) + 1;
  }
  for (let id = 0; id < terms.length; id++) {
    postingStarts[id + 1] = (postingStarts[id + 1] as number) + (postingStarts[id] as number);
  }
  const postingDocs = new Int32Array(entryTerms.length);
  const postingWeights = new Float32Array(entryTerms.length);
  const cursor = postingStarts.slice(0, terms.length);
  for (let doc = 0; doc < size; doc++) {
    for (
      let entry = entryStarts[doc] as number;
      entry < (entryStarts[doc + 1] as number);
      entry++
    ) {
      let tilde = 0;
      for (let field = 0; field < fieldCount; field++) {
        const tf = entryCounts.items[entry * fieldCount + field] as number;
        if (tf === 0) continue;
        const { weight, b } = fieldWeights[field] as FieldWeight;
        const norm =
          1 - b + (b * (lengths[doc * fieldCount + field] as number)) / (averages[field] as number);
        tilde += (weight * tf) / norm;
      }
      const id = entryTerms.items[entry] as number;
      const at = (cursor[id] as number)++;
      postingDocs[at] = doc;
      postingWeights[at] = tilde / (BM25_K1 + tilde);
    }
  }
  return {
    terms,
    postingStarts,
    postingDocs,
    postingWeights,
    vectorStarts,
    vectorTerms: vectorTerms.items.slice(0, vectorTerms.length),
    vectorCounts: Float32Array.from(vectorCounts.items.subarray(0, vectorCounts.length)),
    vectorLengths,
    bigrams: Boolean(options.bigrams),
  };
}

/**
 * The index over `chunks` from its built (or saved) arrays. Holds only the arrays and a term → id
 * map, rebuilt from `data.terms`.
 */
export function lexicalIndexFromData(
  chunks: readonly ChunkRecord[],
  data: LexicalIndexData,
): LexicalIndex {
  const { terms, postingStarts, postingDocs, postingWeights } = data;
  const { vectorStarts, vectorTerms, vectorCounts, vectorLengths } = data;
  const vocabulary = new Map<string, number>();
  terms.forEach((term, id) => vocabulary.set(term, id));
  const size = chunks.length;
  const idfOf = (df: number) => Math.log(1 + (size - df + 0.5) / (df + 0.5));
  const dfOf = (id: number) => (postingStarts[id + 1] as number) - (postingStarts[id] as number);
  const df = (term: string) => {
    const id = vocabulary.get(term);
    return id === undefined ? 0 : dfOf(id);
  };

  return {
    chunks,
    size,
    bigrams: data.bigrams,
    df,
    idf: (term) => idfOf(df(term)),
    accumulate(queryTerms, scores, mask) {
      const touched: number[] = [];
      for (const [term, weight] of queryTerms) {
        const id = vocabulary.get(term);
        if (id === undefined || weight === 0) continue;
        const factor = weight * idfOf(dfOf(id));
        const end = postingStarts[id + 1] as number;
        for (let i = postingStarts[id] as number; i < end; i++) {
          const doc = postingDocs[i] as number;
          if (mask && mask[doc] === 0) continue;
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] = (scores[doc] as number) + factor * (postingWeights[i] as number);
        }
      }
      return touched;
    },
    postings(term) {
      const id = vocabulary.get(term);
      if (id === undefined) return undefined;
      const start = postingStarts[id] as number;
      const end = postingStarts[id + 1] as number;
      return {
        docs: postingDocs.subarray(start, end),
        weights: postingWeights.subarray(start, end),
        idf: idfOf(end - start),
      };
    },
    termVector(doc) {
      if (doc < 0 || doc >= size) return { terms: [], counts: new Float32Array(0), length: 0 };
      const start = vectorStarts[doc] as number;
      const end = vectorStarts[doc + 1] as number;
      return {
        terms: Array.from(vectorTerms.subarray(start, end), (id) => terms[id] as string),
        counts: vectorCounts.subarray(start, end),
        length: vectorLengths[doc] as number,
      };
    },
  };
}
