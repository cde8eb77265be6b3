import { describe, expect, it } from 'vitest';
import { rankedBy } from './ranked-by.js';

describe('rankedBy', () => {
  it('ranks what it keeps as filter and a stable sort by the key would', () => {
    const entries = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3].map((score, i) => ({ score, i }));
    const keep = (e: { score: number }) => e.score !== 4;
    expect(rankedBy(entries, (e) => e.score, keep)).toEqual(
      entries.filter(keep).sort((a, b) => b.score - a.score),
    );
    expect(rankedBy([], (e: number) => e)).toEqual([]);
  });
});
