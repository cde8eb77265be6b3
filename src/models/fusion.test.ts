import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from './fusion.js';

describe('reciprocalRankFusion', () => {
  it('ranks items found by both lists above items found by one', () => {
    const keyword = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const vector = [{ id: 'c' }, { id: 'd' }, { id: 'a' }];
    const fused = reciprocalRankFusion([keyword, vector]);
    expect(fused.map((f) => f.item.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0]?.score).toBeCloseTo(1 / 61 + 1 / 63);
    expect(fused[0]?.ranks).toEqual([1, 3]);
    expect(fused.at(-1)?.ranks).toEqual([undefined, 2]);
  });

  it('uses k to flatten the head, counts a duplicate within a list once, and accepts a key function', () => {
    const fused = reciprocalRankFusion([['x', 'x', 'y']], 0);
    expect(fused.map((f) => [f.item, f.score])).toEqual([
      ['x', 1],
      ['y', 1 / 3],
    ]);
    const byText = reciprocalRankFusion([[{ t: 'A' }], [{ t: 'a' }]], 60, (item) =>
      item.t.toLowerCase(),
    );
    expect(byText).toHaveLength(1);
  });

  it('falls back to source, section and text for chunks without an id', () => {
    const chunk = { source: 's.md', section: 'Intro', text: 'same' };
    expect(reciprocalRankFusion([[chunk], [{ ...chunk }]])).toHaveLength(1);
  });
});
