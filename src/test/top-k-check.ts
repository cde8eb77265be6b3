import { expect } from 'vitest';
import { prepareDocument } from '../retrieval/ingest/ingest.js';
import type { Ranker } from '../retrieval/rank/ranker.js';
import type { ChunkRecord } from '../schema/index.js';
import { fakeWordNet } from './fake-wordnet.js';

/** Forty sections over four topics, many matching each query of {@link expectShortListsAreHeads}. */
export const TOP_K_CHUNKS: ChunkRecord[] = prepareDocument(
  'course.md',
  `# Course\n\n${Array.from(
    { length: 40 },
    (_, i) =>
      `## Part ${i} ${['nodes', 'topics', 'services', 'actions'][i % 4]}\n\nNodes talk over topics ${i % 3 === 0 ? 'and services' : ''}; actions run long goals ${'again '.repeat(i % 5)}.\n`,
  ).join('\n')}`,
).chunks;

/** The WordNet the check's rankers expand with. */
export const TOP_K_WORDNET = fakeWordNet({ node: { synonyms: ['service'] } });

/**
 * The bounded top-k selection keeps the full sort's order: on every query, the first 1, 3 and 5
 * results are the head of the long list.
 */
export function expectShortListsAreHeads(ranker: Ranker): void {
  for (const query of [
    'nodes',
    'topics and services',
    'long running actions',
    'part 7 nodes',
    'goal',
  ]) {
    const all = ranker.rank(query, { limit: 1000 });
    expect(all.length).toBeGreaterThan(5);
    for (const limit of [1, 3, 5])
      expect(ranker.rank(query, { limit })).toEqual(all.slice(0, limit));
  }
}
