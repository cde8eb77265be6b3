import { describe, expect, it } from 'vitest';
import { fakeWordNet } from '../../test/fake-wordnet.js';
import { expectShortListsAreHeads, TOP_K_CHUNKS, TOP_K_WORDNET } from '../../test/top-k-check.js';
import { prepareDocument } from '../ingest/ingest.js';
import { buildLexicalIndex } from './lexical-index.js';
import { expandWithWordNet } from './query-expansion.js';
import { BM25_ONLY, createRanker, DEFAULT_TECHNIQUES } from './ranker.js';

const chunksOf = (markdown: string) =>
  prepareDocument('course.md', `# Course\n\n${markdown}`).chunks;

describe('query expansion', () => {
  it('definition words are weighted by corpus idf, apart from synonyms', () => {
    const index = buildLexicalIndex(
      chunksOf(
        '## A\n\nThe axis of motion.\n\n## B\n\nMotion again.\n\n## C\n\nMore motion.\n\n## D\n\nRevolve and motion.\n',
      ),
    );
    const wordnet = fakeWordNet({
      spin: { synonyms: ['revolve'], definitions: ['axis', 'motion'] },
    });
    const run = (definitionsByIdf: boolean) => {
      const expansions = new Map<string, number>();
      const concepts = new Map<string, string>();
      expandWithWordNet('spin', wordnet, index, new Map([['spin', 1]]), expansions, {
        definitionsByIdf,
        concepts,
      });
      return { expansions, concepts };
    };
    const flat = run(false).expansions;
    expect(flat.get('axi')).toBe(flat.get('motion'));
    const { expansions, concepts } = run(true);
    expect(expansions.get('axi')).toBeGreaterThan(expansions.get('motion') ?? 0);
    expect(expansions.get('revolv')).toBeGreaterThan(expansions.get('axi') ?? 0);
    expect(concepts.get('axi')).toBe('spin');
  });
});

describe('bounded top-k', () => {
  it('a short list is the head of the long one, on every query and technique set', () => {
    for (const techniques of [BM25_ONLY, DEFAULT_TECHNIQUES])
      expectShortListsAreHeads(createRanker(TOP_K_CHUNKS, { techniques, wordnet: TOP_K_WORDNET }));
  });
});
