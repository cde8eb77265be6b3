import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../schema/index.js';
import { chunksAfterIngestion } from './ingested-chunks.js';

const chunk = (source: string, ord: number): ChunkRecord => ({
  id: `${source}#${ord}`,
  source,
  ord,
  title: 'Gaits',
  headingPath: ['Gaits'],
  domain: 'general',
  text: `Text ${ord} \uD800`,
  hash: `${source}-${ord}`,
  metadata: { b: 1, a: 2 },
});

describe('chunksAfterIngestion', () => {
  it('gives the written chunks as the engine gives them back, in store order', () => {
    const written = [chunk('b.md', 1), chunk('b.md', 0), chunk('a.md', 0)];
    const all = chunksAfterIngestion(written, []);
    expect(all.map(({ id }) => id)).toEqual(['a.md#0', 'b.md#0', 'b.md#1']);
    // Through UTF-8 (a lone surrogate becomes U+FFFD), JSONB's key order.
    expect(all[0]!.text).toBe('Text 0 \uFFFD');
    expect(Object.keys(all[0]!.metadata)).toEqual(['a', 'b']);
  });

  it('makes the stored form of a written chunk once, however often it is asked', () => {
    const written = [chunk('a.md', 0), chunk('a.md', 1)];
    const first = chunksAfterIngestion(written, []);
    const again = chunksAfterIngestion(written, []);
    expect(again).toEqual(first);
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
  });
});
