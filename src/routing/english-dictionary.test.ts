import { describe, expect, it } from 'vitest';
import { openEnglishDictionary } from './english-dictionary.js';

describe('openEnglishDictionary', () => {
  const english = openEnglishDictionary();

  it('knows everyday English words, inflected or not', () => {
    for (const word of ['right', 'around', 'reset', 'words', 'hallway', 'ladders', 'cooked'])
      expect(english.has(word), word).toBe(true);
    expect(english.lookup('ladders').lemma).toBe('ladder');
  });
  it('knows irregular plurals and verb forms by their lemma, and keeps their own lemmas first', () => {
    expect(english.lookup('feet').lemma).toBe('foot');
    expect(english.lookup('mice').lemma).toBe('mouse');
    expect(english.lookup('brought').lemma).toBe('bring');
    expect(english.has('swum')).toBe(true);
    // "saw" is a lemma of its own (the tool): its own reading comes first.
    expect(english.lookup('saw').lemma).toBe('saw');
  });
  it('does not know typos, names or jargon WordNet lacks', () => {
    for (const word of ['capstoen', 'lifecyle', 'jetson', 'derailleur', 'zzzz', 'ros2'])
      expect(english.has(word), word).toBe(false);
  });
  it('gives common words a higher frequency than rare ones, and nouns a high noun share', () => {
    expect(english.lookup('today').frequency).toBeGreaterThan(english.lookup('hallway').frequency);
    expect(english.lookup('hallway').nounShare).toBeGreaterThan(0.9);
    expect(english.lookup('quickly').nounShare).toBe(0);
  });
});
