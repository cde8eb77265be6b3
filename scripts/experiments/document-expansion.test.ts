import { describe, expect, it } from 'vitest';
import { expandDocuments } from './document-expansion.js';
import { prepareDocument } from '../../src/retrieval/ingest/ingest.js';
import { fakeWordNet } from '../../src/test/fake-wordnet.js';

const { chunks } = prepareDocument(
  'course.md',
  `# Course

## Lifecycle Nodes

A managed node moves between inactive and active states.

## Reality Gap

Simulated models differ from the hardware they stand for.

## Gap Analysis

Compare the two and measure the difference.

## Topics

Topics carry messages from publishers to subscribers.
`,
);
const sectionOf = (heading: string) => chunks.findIndex((c) => c.headingPath.at(-1) === heading);

describe('expandDocuments', () => {
  const wordnet = fakeWordNet({
    lifecycle: { synonyms: ['lifespan', 'messages'], definitions: ['stages'] },
    gap: { synonyms: ['breach', 'shortfall'] },
    reality: { synonyms: ['actuality'] },
  });

  it("adds synonyms of a chunk's heading words that the corpus does not already use often", () => {
    const expansions = expandDocuments(chunks, wordnet);
    const lifecycle = expansions[sectionOf('Lifecycle Nodes')];
    expect([...(lifecycle?.keys() ?? [])]).toEqual(['lifespan', 'messag']);
    // Definition words are off by default; with a weight they come in below a synonym.
    const withDefinitions = expandDocuments(chunks, wordnet, { definitionWeight: 0.5 });
    expect(withDefinitions[sectionOf('Lifecycle Nodes')]?.get('stage')).toBe(0.5);
    expect(withDefinitions[sectionOf('Lifecycle Nodes')]?.get('lifespan')).toBe(1);
  });

  it('drops terms handed to too many chunks and terms too common in the corpus', () => {
    const expansions = expandDocuments(chunks, wordnet);
    // "gap" heads two sections, so its synonyms would go to both: over the share, dropped.
    expect(expansions[sectionOf('Reality Gap')]?.has('breach')).toBe(false);
    expect([...(expansions[sectionOf('Reality Gap')]?.keys() ?? [])]).toEqual(['actual']);
    const loose = expandDocuments(chunks, wordnet, { maxExpansionShare: 1 });
    expect(loose[sectionOf('Gap Analysis')]?.has('breach')).toBe(true);
    // "gap" occurs in two of the four chunks: too common at the default share, kept at a looser one.
    const common = fakeWordNet({ lifecycle: { synonyms: ['gap'] } });
    expect(expandDocuments(chunks, common)[sectionOf('Lifecycle Nodes')]?.size).toBe(0);
    const looser = expandDocuments(chunks, common, { maxCorpusShare: 0.5 });
    expect(looser[sectionOf('Lifecycle Nodes')]?.has('gap')).toBe(true);
  });

  it("expands a chunk's most distinctive body words when asked", () => {
    const expansions = expandDocuments(chunks, fakeWordNet({ hardware: { synonyms: ['kit'] } }), {
      bodyWords: 3,
    });
    expect(expansions[sectionOf('Reality Gap')]?.has('kit')).toBe(true);
    const headingsOnly = expandDocuments(chunks, fakeWordNet({ hardware: { synonyms: ['kit'] } }));
    expect(headingsOnly[sectionOf('Reality Gap')]?.has('kit')).toBe(false);
  });
});
