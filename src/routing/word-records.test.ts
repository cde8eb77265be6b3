import { describe, expect, it } from 'vitest';
import { englishDictionary } from './english-dictionary.js';
import { compileKeywords, keywordTypo, scoreKeywords } from './keyword-scorer.js';
import { charGramBundles, keysOf, wordKey } from './query-features.js';
import { isContentWord, stemWord } from './query-text.js';
import { testRoutingModels } from '../test/routing-phases.js';
import { wordRecords, type WordRecordSources } from './word-records.js';

// Sources that count how often each fact is asked for, reading "capstne" as "capstone".
function countingSources(readAs: Record<string, string> = { capstne: 'capstone' }) {
  const asked: string[] = [];
  const sources: WordRecordSources = {
    stem: (word) => (asked.push(`stem ${word}`), stemWord(word)),
    keywordTypo: (word) => (word === 'capstne' ? 'capston' : undefined),
    keywords: () => undefined,
    keys: keysOf,
    readAs: (word) => (asked.push(`readAs ${word}`), readAs[word] ?? word),
    content: isContentWord,
    known: (stem) => stem === 'capston',
    bundle: (word) => charGramBundles([word])[0],
    facts: () => undefined,
    spelled: (word) => word === 'capstne' || word === 'xqzvrtw',
  };
  return { sources, asked };
}

describe('wordRecords', () => {
  it("works a word's facts out once and gives the same record from then on", () => {
    const { sources, asked } = countingSources();
    const recordOf = wordRecords(sources);
    const first = recordOf('milestones');
    expect(first).toMatchObject({
      word: 'milestones',
      stem: 'mileston',
      keywordTypo: undefined,
      content: true,
      known: false,
    });
    expect(first.meant).toBe(first);
    expect(first.bundle?.key).toBe('milestones');
    expect(recordOf('milestones')).toBe(first);
    expect(asked.filter((entry) => entry.endsWith(' milestones'))).toEqual([
      'readAs milestones',
      'stem milestones',
    ]);
  });
  it('gives a typo the record of the word it is read as, kept on its own too', () => {
    const { sources } = countingSources();
    const recordOf = wordRecords(sources);
    const typo = recordOf('capstne');
    expect(typo.keywordTypo).toBe('capston');
    expect(typo.meant.word).toBe('capstone');
    expect(typo.meant).toMatchObject({ stem: 'capston', known: true });
    expect(recordOf('capstone')).toBe(typo.meant);
  });
  it('gives a word as typed, without its lookups, when a question has spent its budget', () => {
    const { sources, asked } = countingSources();
    const recordOf = wordRecords(sources);
    const typed = recordOf('capstne', false);
    expect(typed).toMatchObject({ word: 'capstne', keywordTypo: undefined, spelled: true });
    expect(typed.meant).toBe(typed);
    expect(asked).not.toContain('readAs capstne');
    // Read within a budget, the same word is the typo it is; a word needing no lookup is the same.
    expect(recordOf('capstne').meant.word).toBe('capstone');
    expect(recordOf('capstne', false)).toBe(typed);
    expect(recordOf('milestones', false)).toBe(recordOf('milestones'));
  });
  it('reads a word one step only, and does not keep a record read further', () => {
    // "a" is read as "b" and "b" as "c": "a" means "b" as typed; "b" itself means "c".
    const { sources } = countingSources({ a: 'b', b: 'c' });
    const recordOf = wordRecords(sources);
    expect(recordOf('a').meant.word).toBe('b');
    expect(recordOf('a').meant.meant.word).toBe('b');
    expect(recordOf('b').meant.word).toBe('c');
  });
});

describe("a routing model's word records", () => {
  // What analyze looked up per word before the records, one table at a time.
  it('give the same facts as the separate lookups they replace', () => {
    const { grounded } = testRoutingModels();
    const registry = grounded.agents;
    const compiled = compileKeywords(registry);
    const english = englishDictionary();
    const isWord = (word: string) => english.has(word);
    const query =
      'Waht GPU do I need for the capstne, and how do ROS2 topics work in Gazebo? Costmap vs bitcoin';
    const evidence = grounded.keywords(query);
    expect(evidence.records.map((record) => record.word)).toEqual(evidence.text.words);
    evidence.records.forEach((record, i) => {
      const word = evidence.text.words[i] as string;
      expect(record.stem).toBe(stemWord(word));
      expect(record.keywordTypo).toBe(keywordTypo(compiled, word, record.stem, isWord));
      expect(record.keywords).toEqual(compiled.byFirstStem.get(record.keywordTypo ?? record.stem));
      expect(record.keys).toBe(keysOf(record.stem));
      const meant = record.meant;
      expect(meant.content).toBe(isContentWord(meant.word));
      expect(meant.known).toBe(grounded.classifier.knows(wordKey(meant.stem)));
      expect(meant.bundle).toBe(charGramBundles([meant.word])[0]);
      expect(meant.facts).toEqual(grounded.knowledge?.wordFacts(meant.word, meant.stem));
    });
    // The typo is read as the keyword it misspells.
    const typo = evidence.records.find((record) => record.word === 'capstne');
    expect(typo?.meant.word).toBe('capstone');
    // And the whole analysis is the one the text alone gives (grounding looked up per word).
    const analyzed = grounded.analyze(query);
    expect(analyzed.grounding).toEqual(grounded.knowledge?.ground(analyzed.text));
    expect(analyzed.corrections).toContainEqual(['capstne', 'capstone']);
    // Keyword scores and features from the records are those the text alone gives.
    expect(evidence.keywords).toEqual(scoreKeywords(compiled, evidence.text, { isWord }));
  });
});
