import { describe, expect, it } from 'vitest';
import { createScoreScratch, exhaustiveTopK, topScoring, type ScoredList } from './score-lists.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Random postings over `size` chunks. Few weight levels and factors make equal totals common;
 * half the sets repeat one block of chunks several times (as a corpus copied under new paths
 * does), so whole groups of chunks tie.
 */
function randomLists(next: () => number, size: number): ScoredList[] {
  const levels = 1 + Math.floor(next() * 4);
  const copies = next() < 0.5 ? 1 + Math.floor(next() * 4) : 1;
  const block = Math.max(1, Math.floor(size / copies));
  return Array.from({ length: 1 + Math.floor(next() * 8) }, (_, list) => {
    const inBlock = [
      ...new Set(
        Array.from({ length: Math.floor(next() * block) }, () => Math.floor(next() * block)),
      ),
    ];
    const weightOf = new Map(
      inBlock.map((doc) => [doc, (1 + Math.floor(next() * levels)) / levels]),
    );
    const docs: number[] = [];
    for (let copy = 0; copy < copies; copy++)
      for (const doc of inBlock) if (copy * block + doc < size) docs.push(copy * block + doc);
    docs.sort((a, b) => a - b);
    return {
      docs: Int32Array.from(docs),
      weights: Float32Array.from(docs, (doc) => weightOf.get(doc % block) as number),
      factor: [1, 0.5, 0.3, 1.7][Math.floor(next() * 4)] as number,
      own: list === 0 || next() < 0.4,
    };
  });
}

describe('topScoring', () => {
  it('scores a small example by hand: own and total, ties to the lower number', () => {
    const scratch = createScoreScratch(4);
    const lists: ScoredList[] = [
      {
        docs: Int32Array.of(0, 2, 3),
        weights: Float32Array.of(0.5, 0.5, 0.25),
        factor: 2,
        own: true,
      },
      { docs: Int32Array.of(1, 3), weights: Float32Array.of(1, 0.5), factor: 1, own: false },
    ];
    expect(topScoring(lists, 3, scratch)).toEqual([
      { doc: 0, own: 1, total: 1 },
      { doc: 1, own: 0, total: 1 },
      { doc: 2, own: 1, total: 1 },
    ]);
    expect(topScoring(lists, 10, scratch, Uint8Array.of(1, 0, 1, 1)).map((hit) => hit.doc)).toEqual(
      [0, 2, 3],
    );
    expect(topScoring(lists, 0, scratch)).toEqual([]);
  });

  it('returns what scoring every posting and sorting returns, numbers included, on random lists', () => {
    const next = random(7);
    for (let round = 0; round < 400; round++) {
      const size = 1 + Math.floor(next() * 200);
      const lists = randomLists(next, size);
      const scratch = createScoreScratch(size);
      const mask =
        next() < 0.3 ? Uint8Array.from({ length: size }, () => (next() < 0.6 ? 1 : 0)) : undefined;
      const prior =
        next() < 0.3
          ? Float64Array.from({ length: size }, () => (next() < 0.2 ? 0.8 : 1))
          : undefined;
      for (const k of [1, 3, 10, 1000]) {
        expect(topScoring(lists, k, scratch, mask, prior)).toEqual(
          exhaustiveTopK(lists, k, mask, prior),
        );
      }
      // Every score is cleared again, so the next query starts from zero.
      expect(scratch.scores.every((score) => score === 0)).toBe(true);
    }
  });
});
