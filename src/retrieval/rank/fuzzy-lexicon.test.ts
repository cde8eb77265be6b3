import { describe, expect, it } from 'vitest';
import { createFuzzyLexicon } from './fuzzy-lexicon.js';

describe('createFuzzyLexicon', () => {
  const lexicon = createFuzzyLexicon(['apiary', 'smoker', 'varroa'], [['nectar', 3]]);

  it('maps a word one edit from a known word onto it, and a known word onto itself', () => {
    expect(lexicon.correct('apiray')).toBe('apiary');
    expect(lexicon.correct('smokker')).toBe('smoker');
    expect(lexicon.correct('varoa')).toBe('varroa');
    expect(lexicon.correct('nectar')).toBe('nectar');
    expect(lexicon.has('nectar')).toBe(true);
    expect(lexicon.size).toBe(4);
  });

  it('leaves short words and words far from every known word alone', () => {
    expect(lexicon.correct('bee')).toBeUndefined();
    expect(lexicon.correct('pollen')).toBeUndefined();
  });

  it('reads a typo the same when known words were asked first, the likelier word winning', () => {
    // Known words are answered without the deletion index, which the first typo builds.
    const fresh = createFuzzyLexicon(['hikes', 'hives', 'hives']);
    expect(fresh.correct('hives')).toBe('hives');
    expect(fresh.has('hikes')).toBe(true);
    expect(fresh.correct('hices')).toBe('hives');
    expect(createFuzzyLexicon(['hives', 'hikes']).correct('hices')).toBe('hikes');
    expect(fresh.correct('hive')).toBe('hives');
    expect(fresh.correct('hivess')).toBe('hives');
  });

  it('answers at once for a word longer than any known word plus one letter', () => {
    // Its one-letter deletions were all built and looked up: a 10,000-letter word (POST /chat's
    // selected_text) copied 100 MB and took 0.4 s per request (outside tester's fuzz).
    const lexicon = createFuzzyLexicon(['capstone', 'lifecycle']);
    const started = performance.now();
    expect(lexicon.correct('x'.repeat(10_000))).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(100);
    expect(lexicon.correct('lifecyclee')).toBe('lifecycle');
  });
});
