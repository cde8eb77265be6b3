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
});
