import { describe, expect, it } from 'vitest';
import { LetterRunMemo } from './letter-run-memo.js';

describe('LetterRunMemo', () => {
  it('finds a word by its letters in a text, in any case, and nothing else', () => {
    const memo = new LetterRunMemo<number>(100);
    memo.set('what', 1);
    memo.set('wha', 2);
    expect(memo.get('So WHAT?', 3, 7)).toBe(1);
    expect(memo.get('So What?', 3, 6)).toBe(2);
    expect(memo.get('whats', 0, 5)).toBeUndefined();
    expect(memo.get('whet', 0, 4)).toBeUndefined();
  });

  it('keeps every word through its growth, and none past its limit', () => {
    const memo = new LetterRunMemo<number>(3000);
    const word = (n: number) =>
      n
        .toString(26)
        .split('')
        .map((digit) => String.fromCharCode(0x61 + parseInt(digit, 26)))
        .join('');
    for (let n = 0; n < 4000; n += 1) memo.set(word(n), n);
    for (let n = 0; n < 4000; n += 1) {
      const text = ` ${word(n).toUpperCase()} `;
      expect(memo.get(text, 1, text.length - 1)).toBe(n < 3000 ? n : undefined);
    }
  });
});
