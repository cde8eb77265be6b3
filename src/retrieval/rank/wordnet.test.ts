import { describe, expect, it } from 'vitest';
import { inflectionBaseForms, openWordNetLexicon } from './wordnet.js';

describe('inflectionBaseForms', () => {
  it('gives the word, then its base forms by every part of speech’s rules, each once', () => {
    expect(inflectionBaseForms('halted')).toEqual(['halted', 'halte', 'halt']);
    expect(inflectionBaseForms('batteries')).toEqual([
      'batteries',
      'battery',
      'batterie',
      'batteri',
    ]);
    expect(inflectionBaseForms('safer')).toEqual(['safer', 'saf', 'safe']);
    expect(inflectionBaseForms('gps')).toEqual(['gps']);
  });
});

describe('openWordNetLexicon', () => {
  const lexicon = openWordNetLexicon();

  it('knows English words and their inflections, not typos or jargon', () => {
    expect(lexicon.knows('online')).toBe(true);
    expect(lexicon.knows('crashes')).toBe(true);
    expect(lexicon.knows('get rid of')).toBe(true);
    expect(lexicon.knows('refactr')).toBe(false);
    expect(lexicon.knows('desgin')).toBe(false);
  });

  it('gives a verb its senses, most frequent first, with hypernyms that are not roots', () => {
    const [first] = lexicon.verbSenses('mend', 1);
    expect(first?.words).toContain('fix');
    expect(lexicon.verbSenses('troubleshoot', 1)[0]?.hypernyms).toContain('fix');
    // "change" is a root of the verb hierarchy: a hypernym of nearly everything, so left out.
    expect(lexicon.verbSenses('simplify', 1)[0]?.hypernyms).toEqual([]);
    expect(lexicon.verbSenses('kitchen', 2)).toEqual([]);
  });
});
