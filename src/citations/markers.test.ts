import { describe, expect, it } from 'vitest';
import { citationMarkers, renumberMarkers } from './markers.js';
import { numberSources } from './number-sources.js';
import { mergeCitations } from './merge-citations.js';

describe('citation markers', () => {
  it('lists markers in order of first use', () => {
    expect(citationMarkers('A [2] and B [1][2], not [1000].')).toEqual([2, 1]);
  });

  it('renumbers markers and drops the unmapped ones', () => {
    expect(renumberMarkers('A [2], B [7].', new Map([[2, 1]]))).toBe('A [1], B .');
  });
});

describe('numberSources and mergeCitations', () => {
  it('gives one number per source, in order of first appearance, with a map per part', () => {
    const { sources, renumber } = numberSources(
      [
        [
          { index: 1, id: 'b' },
          { index: 2, id: 'a' },
        ],
        [
          { index: 1, id: 'a' },
          { index: 2, id: 'c' },
        ],
      ],
      (source) => source.id,
    );
    expect(sources).toEqual([
      { index: 1, id: 'b' },
      { index: 2, id: 'a' },
      { index: 3, id: 'c' },
    ]);
    expect(renumber.map((map) => [...map])).toEqual([
      [
        [1, 1],
        [2, 2],
      ],
      [
        [1, 2],
        [2, 3],
      ],
    ]);
  });

  it('merges the same passage cited twice and keeps its best score', () => {
    const passage = { source: 'a.md', title: 'A', section: 'S', chunkId: 'c1' };
    const { citations, renumber } = mergeCitations([
      [{ ...passage, index: 1, relevanceScore: 0.4 }],
      [
        { index: 1, source: 'b.md', title: 'B', relevanceScore: 0.5 },
        { ...passage, index: 2, relevanceScore: 0.8 },
      ],
    ]);
    expect(citations.map((c) => [c.index, c.source, c.relevanceScore])).toEqual([
      [1, 'a.md', 0.8],
      [2, 'b.md', 0.5],
    ]);
    expect(renumber[1]?.get(2)).toBe(1);
  });
});
