import { describe, expect, it } from 'vitest';
import { topK } from './top-k.js';

/** The definition topK must match: filter positive scores, sort, slice. */
const fullSort = (scores: Float64Array, candidates: readonly number[], k: number) =>
  candidates
    .filter((doc) => (scores[doc] as number) > 0)
    .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b)
    .slice(0, k);

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('topK', () => {
  it('keeps the k best, best first, ties to the lower number', () => {
    const scores = Float64Array.of(0.5, 0.9, 0.5, 0, 0.9, -1);
    expect(topK(scores, [0, 1, 2, 3, 4, 5], 3)).toEqual([1, 4, 0]);
    expect(topK(scores, [5, 4, 3, 2, 1, 0], 10)).toEqual([1, 4, 0, 2]);
    expect(topK(scores, [0, 1], 0)).toEqual([]);
  });

  it('equals the full sort on many random score sets, with ties, zeros and repeats', () => {
    const next = random(12);
    for (let round = 0; round < 500; round++) {
      const size = 1 + Math.floor(next() * 300);
      // Few distinct levels make ties common; some scores are zero or negative.
      const levels = 1 + Math.floor(next() * 20);
      const scores = Float64Array.from(
        { length: size },
        () => Math.floor(next() * levels) / levels - (next() < 0.1 ? 0.5 : 0),
      );
      const candidates = Array.from({ length: Math.floor(next() * size * 1.2) }, () =>
        Math.floor(next() * size),
      );
      const k = Math.floor(next() * 25);
      expect(topK(scores, candidates, k)).toEqual(fullSort(scores, candidates, k));
    }
  });
});
