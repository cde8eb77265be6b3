import { topK } from './top-k.js';

/**
 * One query term's postings as the scorer walks them: `docs` ascending, and a chunk's contribution
 * is `factor × weights[i]` (BM25: the term's query weight × idf, times the saturated tf weight).
 * Weights are positive (a saturated tf weight always is); a list whose factor is not is skipped.
 */
export interface ScoredList {
  docs: Int32Array;
  weights: Float32Array | Float64Array;
  factor: number;
  /** True for the query's own terms: their sum is the chunk's `own` score (see `relevance`). */
  own: boolean;
}

/** A chunk's score over the lists: `own` sums the own lists, `total` every list. */
export interface ScoredDoc {
  doc: number;
  own: number;
  total: number;
}

/**
 * Per-chunk working arrays of {@link topScoring}, made once per index and used by one query at a
 * time: every score is back at zero when a search returns, so no query pays to clear them.
 */
export interface ScoreScratch {
  scores: Float64Array;
  touched: Int32Array;
}

/** Working arrays for an index of `size` chunks. */
export function createScoreScratch(size: number): ScoreScratch {
  return { scores: new Float64Array(size), touched: new Int32Array(size) };
}

/**
 * The `k` chunks with the highest positive total, best first, ties to the lower chunk number;
 * only chunks `mask` allows (1). `own` and `total` are summed as {@link exhaustiveTopK} sums
 * them (own lists in order, then the others in order), so the numbers are the same to the bit;
 * with a `prior`, each chunk's total is then multiplied by its factor there.
 *
 * Term at a time into the scratch's accumulator: each posting costs one add, the chunks touched
 * are listed as they are first reached, and only those are ranked (a bounded heap) and cleared
 * afterwards, so a query costs its postings and never the size of the corpus. The own score is
 * summed again, by galloping search, for the `k` chunks returned only.
 *
 * @example
 * const scratch = createScoreScratch(3);
 * topScoring([{ docs: Int32Array.of(0, 2), weights: Float32Array.of(0.5, 0.9), factor: 2, own: true }], 1, scratch);
 * // [{ doc: 2, own: 1.8…, total: 1.8… }]
 */
export function topScoring(
  lists: readonly ScoredList[],
  k: number,
  scratch: ScoreScratch,
  mask?: Uint8Array,
  prior?: Float64Array,
): ScoredDoc[] {
  if (k <= 0) return [];
  const { scores, touched } = scratch;
  let count = 0;
  try {
    for (const mine of [true, false]) {
      for (const list of lists) {
        if (list.own === mine) count = addList(list, scores, touched, count, mask);
      }
    }
    if (prior) {
      for (let i = 0; i < count; i++) {
        const doc = touched[i] as number;
        scores[doc] = (scores[doc] as number) * (prior[doc] as number);
      }
    }
    return topK(scores, touched.subarray(0, count), k).map((doc) => ({
      doc,
      own: ownScore(lists, doc),
      total: scores[doc] as number,
    }));
  } finally {
    for (let i = 0; i < count; i++) scores[touched[i] as number] = 0;
  }
}

/**
 * Adds one list's contributions to `scores`, listing in `touched` (from `count`) the chunks it
 * reaches first; returns the new count. Adding zero changes no score, and skipping it keeps each
 * chunk listed once.
 */
function addList(
  list: ScoredList,
  scores: Float64Array,
  touched: Int32Array,
  count: number,
  mask: Uint8Array | undefined,
): number {
  const { docs, weights, factor } = list;
  if (!(factor > 0)) return count;
  // Two loops rather than a mask test per posting: this is the whole cost of a query.
  if (mask === undefined) {
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as number;
      const before = scores[doc] as number;
      if (before === 0) touched[count++] = doc;
      scores[doc] = before + factor * (weights[i] as number);
    }
  } else {
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as number;
      if (mask[doc] === 0) continue;
      const before = scores[doc] as number;
      if (before === 0) touched[count++] = doc;
      scores[doc] = before + factor * (weights[i] as number);
    }
  }
  return count;
}

/** The sum of `doc`'s contributions from the own lists, in list order. */
function ownScore(lists: readonly ScoredList[], doc: number): number {
  let own = 0;
  for (const list of lists) {
    if (!list.own) continue;
    const at = lowerBound(list.docs, doc);
    if (at < list.docs.length && list.docs[at] === doc) {
      const value = list.factor * (list.weights[at] as number);
      if (value > 0) own += value;
    }
  }
  return own;
}

/** The first position whose chunk number is at least `target` (binary search). */
function lowerBound(docs: Int32Array, target: number): number {
  let low = 0;
  let high = docs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((docs[middle] as number) < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The definition {@link topScoring} is tested against: every posting scored into maps in list
 * order (own lists, then the others), every positive chunk sorted, the first `k` kept.
 */
export function exhaustiveTopK(
  lists: readonly ScoredList[],
  k: number,
  mask?: Uint8Array,
  prior?: Float64Array,
): ScoredDoc[] {
  const own = new Map<number, number>();
  const total = new Map<number, number>();
  for (const list of lists) {
    if (!list.own) continue;
    list.docs.forEach((doc, i) => {
      if (mask && mask[doc] === 0) return;
      own.set(doc, (own.get(doc) ?? 0) + list.factor * (list.weights[i] as number));
    });
  }
  for (const [doc, score] of own) total.set(doc, score);
  for (const list of lists) {
    if (list.own) continue;
    list.docs.forEach((doc, i) => {
      if (mask && mask[doc] === 0) return;
      total.set(doc, (total.get(doc) ?? 0) + list.factor * (list.weights[i] as number));
    });
  }
  if (prior) for (const [doc, score] of total) total.set(doc, score * (prior[doc] as number));
  return [...total]
    .filter(([, score]) => score > 0)
    .map(([doc, score]) => ({ doc, own: own.get(doc) ?? 0, total: score }))
    .sort((a, b) => b.total - a.total || a.doc - b.doc)
    .slice(0, Math.max(0, k));
}
