import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import { mineAcronyms } from './acronyms.js';
import { buildLexicalIndex } from './lexical-index.js';
import { createRanker, DEFAULT_TECHNIQUES } from './ranker.js';
import {
  createSpelledAcronyms,
  phrasesOf,
  type SpelledAcronymSources,
} from './spelled-acronyms.js';

// A small handbook for a seed bank (new wording): a table that writes only "EOL", a page titled
// "End-of-Life Seeds", a vendor "RTI" whose initials a question may spell by chance, "SET" in
// capitals in a shell line (an English word), "lids" mostly in lower case, and an acronym the
// handbook defines.
const chunks = [
  ...prepareDocument(
    'varieties.md',
    [
      '# Varieties',
      '## Variety table',
      'Basil Genovese: stored 2021, EOL 2027.',
      'Tomato Roma: stored 2019, EOL 2025.',
      'Bean Borlotti: stored 2020, EOL 2026; see the WSL notes.',
      '## Growing under glass',
      'Basil and tomatoes grow well in the Warm Seed Lab (WSL); the WSL keeps them humid.',
      'Basil seeds need warm trays.',
    ].join('\n\n'),
  ).chunks,
  ...prepareDocument(
    'end-of-life.md',
    ['# End-of-Life Seeds', 'Seeds past their date are composted.'].join('\n\n'),
  ).chunks,
  ...prepareDocument(
    'vendors.md',
    [
      '# Vendors',
      '## Trays',
      'RTI sells the trays; RTI trays hold 40 cells. Each seed exchange tray is labelled.',
      'The lower inner deck holds the lids, and spare lids sit under it; LID sizes vary.',
      '## Shell',
      'Run SET TRAYS=40 then SET LIDS=40 before the first sowing, and check for issues in real time.',
    ].join('\n\n'),
  ).chunks,
];

const index = buildLexicalIndex(chunks);
// WordNet as the reading sees it (a stub with new examples): "set" is English, and so is "cpu",
// for the one phrase WordNet lists it as.
const ENGLISH: Record<string, string[]> = {
  set: ['put', 'place'],
  cpu: ['central processing unit', 'processor'],
};
const sources: SpelledAcronymSources = {
  chunksWith: (term) => index.postings(term)?.docs ?? [],
  english: (word) => ENGLISH[word],
  defined: mineAcronyms(chunks.map((chunk) => chunk.text)),
};
const spelled = (query: string) =>
  createSpelledAcronyms(chunks, sources)(query).map(({ phrase, acronym }) => [phrase, acronym]);

describe('phrasesOf', () => {
  it('reads runs of words of substance, small words giving their letter or none', () => {
    const phrases = phrasesOf('When does Basil reach end of life?');
    expect(phrases).toContainEqual({ phrase: 'end of life', initialisms: ['eol'], last: 'life' });
    expect(phrases.find((p) => p.phrase === 'basil reach end of life')?.initialisms).toEqual([
      'breol',
      'brel',
    ]);
  });
  it('joins words across hyphens and slashes, never across other marks or function words', () => {
    expect(phrasesOf('Is it end-of-life?').map((p) => p.phrase)).toEqual(['end of life']);
    expect(phrasesOf('the end, of life')).toEqual([]);
    expect(phrasesOf('frames per second')).toEqual([]);
  });
  it('skips articles, and reads two-letter initials of nobody', () => {
    expect(phrasesOf('hardware in the loop')[0]?.initialisms).toEqual(['hil']);
    expect(phrasesOf('forward kinematics')).toEqual([]);
  });
});

describe('createSpelledAcronyms', () => {
  it('finds an acronym the corpus writes in capitals for a phrase it also writes', () => {
    expect(spelled('When does Basil reach end of life?')).toEqual([['end of life', 'eol']]);
    expect(spelled('Does Roma reach its end-of-life soon?')).toEqual([['end of life', 'eol']]);
  });
  it('leaves a phrase the corpus never writes, whatever its initials spell', () => {
    // "real time issues" is RTI's letters, and the corpus writes "RTI", but never that phrase.
    expect(spelled('How do I fix real time issues with trays?')).toEqual([]);
  });
  it('leaves a word the corpus mostly writes in lower case', () => {
    expect(spelled('What sits on the lower inner deck?')).toEqual([]);
  });
  it('leaves an English word, unless WordNet lists it for the phrase', () => {
    expect(spelled('Where is the seed exchange tray?')).toEqual([]);
    const withCpu = [
      ...chunks,
      ...prepareDocument('pc.md', '# PC\n\nThe CPU and the CPU fan. A central processing unit.')
        .chunks,
    ];
    const all = buildLexicalIndex(withCpu);
    const read = createSpelledAcronyms(withCpu, {
      ...sources,
      chunksWith: (term) => all.postings(term)?.docs ?? [],
    });
    expect(read('Which central processing unit is used?').map((found) => found.acronym)).toEqual([
      'cpu',
    ]);
  });
  it('leaves an acronym the corpus defines, for its phrase or another', () => {
    // "Warm Seed Lab (WSL)": the definition is read by `expandAcronyms`; "wet soil layer" is not it.
    expect(spelled('Is the warm seed lab humid?')).toEqual([]);
    expect(spelled('How deep is the wet soil layer?')).toEqual([]);
  });
});

describe('spelled acronyms in the ranking', () => {
  it('ranks the passage that writes only the acronym first for the phrase', () => {
    const top = (techniques = DEFAULT_TECHNIQUES) =>
      createRanker(chunks, { techniques }).rank('When does Basil reach end of life?', {
        limit: 1,
      })[0]?.chunk.headingPath;
    expect(top()).toEqual(['Varieties', 'Variety table']);
    expect(top({ ...DEFAULT_TECHNIQUES, acronyms: false })).not.toEqual([
      'Varieties',
      'Variety table',
    ]);
  });
});
