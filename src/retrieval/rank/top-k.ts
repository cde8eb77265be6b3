/**
 * The `k` candidates with the highest positive score, best first; equal scores go to the lower
 * number. The same list as filtering, sorting all candidates and slicing, but it keeps only `k` at
 * a time in a binary heap, so a query that touches most of a large corpus costs O(n log k) rather
 * than O(n log n) and allocates no copy of the candidates.
 *
 * @example
 * topK(Float64Array.of(0.1, 0.9, 0.5), [0, 1, 2], 2); // [1, 2]
 */
export function topK(
  scores: Float64Array | Float32Array,
  candidates: Iterable<number>,
  k: number,
): number[] {
  if (k <= 0) return [];
  // A min-heap on "better than": the root is the worst candidate kept so far.
  const heap: number[] = [];
  /** True when `a` ranks above `b`: higher score, then lower number. */
  const better = (a: number, b: number) => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    return sa > sb || (sa === sb && a < b);
  };
  const siftUp = (at: number) => {
    const item = heap[at] as number;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const above = heap[parent] as number;
      if (!better(above, item)) break;
      heap[at] = above;
      at = parent;
    }
    heap[at] = item;
  };
  const siftDown = (at: number) => {
    const item = heap[at] as number;
    const size = heap.length;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const right = left + 1;
      let worst = left;
      if (right < size && better(heap[left] as number, heap[right] as number)) worst = right;
      const child = heap[worst] as number;
      if (!better(item, child)) break;
      heap[at] = child;
      at = worst;
    }
    heap[at] = item;
  };
  // The worst kept candidate's score: most candidates fall below it and cost one comparison.
  let floor = 0;
  for (const doc of candidates) {
    const score = scores[doc] as number;
    if (!(score > 0) || score < floor) continue;
    if (heap.length < k) {
      heap.push(doc);
      siftUp(heap.length - 1);
    } else if (better(doc, heap[0] as number)) {
      heap[0] = doc;
      siftDown(0);
    } else continue;
    if (heap.length === k) floor = scores[heap[0] as number] as number;
  }
  return heap.sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
}
