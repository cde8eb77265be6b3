import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../../src/retrieval/ingest/ingest.js';
import { BM25_ONLY } from '../../src/retrieval/rank/ranker.js';
import { fakeWordNet } from '../../src/test/fake-wordnet.js';
import {
  expectShortListsAreHeads,
  TOP_K_CHUNKS,
  TOP_K_WORDNET,
} from '../../src/test/top-k-check.js';
import { createExperimentalRanker, type ExperimentTechniques } from './experimental-ranker.js';

const chunksOf = (markdown: string) =>
  prepareDocument('course.md', `# Course\n\n${markdown}`).chunks;
const headings = (hits: { chunk: { headingPath: string[] } }[]) =>
  hits.map((hit) => hit.chunk.headingPath.at(-1));
const only = (on: Partial<ExperimentTechniques>) => ({ techniques: { ...BM25_ONLY, ...on } });

describe('experimental ranking techniques', () => {
  it('document expansion finds a section through a synonym of its heading absent from the text', () => {
    const chunks = chunksOf(
      '## Lifecycle Nodes\n\nA managed node moves between inactive and active states.\n\n## Topics\n\nTopics carry messages to subscribers.\n',
    );
    const wordnet = fakeWordNet({ lifecycle: { synonyms: ['lifespan'] } });
    const query = 'what is the lifespan of a program';
    expect(createExperimentalRanker(chunks, { ...only({}), wordnet }).rank(query)).toEqual([]);
    const expanded = createExperimentalRanker(chunks, {
      ...only({ documentExpansion: true }),
      wordnet,
    });
    expect(headings(expanded.rank(query))).toEqual(['Lifecycle Nodes']);
  });

  it('the subject bonus puts the section named by the question first', () => {
    const chunks = chunksOf(
      '## Reality Gap\n\nModels differ from hardware.\n\n## Sim Transfer\n\nThe reality gap, the reality gap again: a reality gap closes slowly, gap after gap, reality after reality.\n',
    );
    const query = 'What is the reality gap?';
    expect(headings(createExperimentalRanker(chunks, only({})).rank(query))[0]).toBe(
      'Sim Transfer',
    );
    expect(headings(createExperimentalRanker(chunks, only({ subject: true })).rank(query))[0]).toBe(
      'Reality Gap',
    );
  });

  it('concepts: two different query words beat many synonyms of one', () => {
    const chunks = chunksOf(
      '## Gyros\n\nSpin, twirl, revolution, whirl: spin and twirl and whirl again.\n\n## Detectors\n\nA detector of spin.\n\n## Other\n\nUnrelated words about batteries.\n',
    );
    const wordnet = fakeWordNet({
      rotation: { synonyms: ['spin', 'twirl', 'revolution', 'whirl'] },
      sensor: { synonyms: ['detector'] },
    });
    const query = 'rotation sensor';
    const plain = createExperimentalRanker(chunks, { ...only({ wordnet: true }), wordnet });
    expect(headings(plain.rank(query))[0]).toBe('Gyros');
    const grouped = createExperimentalRanker(chunks, {
      ...only({ wordnet: true, concepts: true }),
      wordnet,
    });
    expect(headings(grouped.rank(query))[0]).toBe('Detectors');
  });
});

describe('bounded top-k with the experiments on', () => {
  it('a short list is the head of the long one, on every query and technique set', () => {
    for (const techniques of [{ ...BM25_ONLY, feedback: true, lsi: true }, 'all' as const])
      expectShortListsAreHeads(
        createExperimentalRanker(TOP_K_CHUNKS, { techniques, wordnet: TOP_K_WORDNET }),
      );
  });
});
