import { describe, expect, it } from 'vitest';
import { correctSpelling, editDistance, misspeltWord } from './request-spelling.js';

const vocabulary = new Set(['design', 'implement', 'inline', 'change', 'refactor', 'propose']);

describe('misspeltWord', () => {
  it('corrects a word that is not English to the vocabulary word it is one slip from', () => {
    expect(misspeltWord('desgin', vocabulary)).toBe('design');
    expect(misspeltWord('propse', vocabulary)).toBe('propose');
    expect(misspeltWord('refactr', vocabulary)).toBe('refactor');
    // Long words may be two slips away, and may carry an ending.
    expect(misspeltWord('impelmenting', vocabulary)).toBe('implement');
  });

  it('never corrects an English word, however close it is to the vocabulary', () => {
    // A dictionary check, not closeness to a short list, decides what is a misspelling.
    expect(misspeltWord('online', vocabulary)).toBeUndefined();
    expect(misspeltWord('chance', vocabulary)).toBeUndefined();
    expect(misspeltWord('resign', vocabulary)).toBeUndefined();
    expect(misspeltWord('changes', vocabulary)).toBeUndefined();
  });

  it('leaves short words and words far from the vocabulary alone', () => {
    expect(misspeltWord('dsgn', vocabulary)).toBeUndefined();
    expect(misspeltWord('webpackish', vocabulary)).toBeUndefined();
  });
});

describe('correctSpelling', () => {
  it('rewrites plain words only, never identifiers, and says what it changed', () => {
    expect(correctSpelling('Desgin the api for uploads', vocabulary)).toEqual({
      text: 'design the api for uploads',
      corrections: ['desgin → design'],
    });
    const code = 'move desginSvc and desgin_v2 to lib/desgin.ts';
    expect(correctSpelling(code, vocabulary).text).toBe(code);
  });
});

describe('editDistance', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('desing', 'design', 2)).toBe(1);
    expect(editDistance('abc', 'abcdef', 1)).toBe(2);
  });
});
