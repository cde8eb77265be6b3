import { describe, expect, it } from 'vitest';
import { swappedFunctionWord } from './routing-model.js';

describe('swappedFunctionWord', () => {
  it('reads a short question or function word typed with two letters swapped', () => {
    expect(swappedFunctionWord('waht')).toBe('what');
    expect(swappedFunctionWord('teh')).toBe('the');
    expect(swappedFunctionWord('whcih')).toBe('which');
  });
  it('leaves alone a word that is already one, one no swap makes one, and an ambiguous one', () => {
    expect(swappedFunctionWord('what')).toBeUndefined();
    expect(swappedFunctionWord('urdf')).toBeUndefined();
    // "hwo" is "how" or "who": no telling which.
    expect(swappedFunctionWord('hwo')).toBeUndefined();
    expect(swappedFunctionWord('ab')).toBeUndefined();
  });
});
