import { describe, expect, it } from 'vitest';
import { inflectionBaseForms } from './wordnet.js';

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
