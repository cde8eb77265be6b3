import { describe, expect, it } from 'vitest';
import { openEnglishDictionary } from './english-dictionary.js';

describe('openEnglishDictionary', () => {
  const english = openEnglishDictionary();

  it('knows everyday English words, inflected or not', () => {
    for (const word of ['right', 'around', 'reset', 'words', 'hallway', 'ladders', 'cooked'])
      expect(english.has(word), word).toBe(true);
    expect(english.lookup('ladders').lemma).toBe('ladder');
  });
  it('knows the closed-class words WordNet does not list, as everyday words that name nothing', () => {
    for (const word of ['would', 'could', 'those', 'ours', 'whose', 'dont', 'youre', 'lest']) {
      expect(english.has(word), word).toBe(true);
      expect(english.lookup(word).nounShare, word).toBe(0);
    }
    // A word WordNet lists keeps its own entry ("can", the container; "will", the testament).
    expect(english.lookup('can').frequency).not.toBe(english.lookup('would').frequency);
  });
  it('knows irregular plurals and verb forms by their lemma, and keeps their own lemmas first', () => {
    expect(english.lookup('feet').lemma).toBe('foot');
    expect(english.lookup('mice').lemma).toBe('mouse');
    expect(english.lookup('brought').lemma).toBe('bring');
    // Too short for the detachment rules: "goes" is go's, an everyday verb, not an unknown word.
    expect(english.lookup('goes').lemma).toBe('go');
    expect(english.has('swum')).toBe(true);
    // "saw" is a lemma of its own (the tool): its own reading comes first.
    expect(english.lookup('saw').lemma).toBe('saw');
  });
  it('reads a rare lemma of its own as the inflection of its far more common base', () => {
    // "legs" (staying power), "windows" (the software), "walking" are rare lemmas of their own;
    // a question means the plural of "leg", "window", the verb "walk".
    expect(english.lookup('shins').lemma).toBe('shin');
    for (const [word, base] of [
      ['legs', 'leg'],
      ['windows', 'window'],
      ['walking', 'walk'],
      ['hopping', 'hop'],
      ['stirred', 'stir'],
    ] as const) {
      expect(english.lookup(word).lemma, word).toBe(base);
      expect(english.lookup(word).frequency, word).toBe(english.lookup(base).frequency);
    }
    // Its own noun use stays: a gerund still names a thing.
    expect(english.lookup('walking').nounShare).toBeGreaterThan(english.lookup('walk').nounShare);
    // A lemma in everyday use of its own stays itself: "news" is not "new", "training" not "train".
    expect(english.lookup('news').lemma).toBe('news');
    expect(english.lookup('training').lemma).toBe('training');
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
