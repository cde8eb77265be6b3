import { describe, expect, it } from 'vitest';
import { ANSWER_MESSAGES, quotedList } from './messages.js';

describe('the not-covered message', () => {
  it('joins the uncovered words as a sentence reads them', () => {
    expect(quotedList(['gold'], 'or')).toBe('"gold"');
    expect(quotedList(['gold', 'today'], 'or')).toBe('"gold" or "today"');
    expect(quotedList(['a', 'b', 'c'], 'and')).toBe('"a", "b" and "c"');
    expect(ANSWER_MESSAGES.notCovered(['gold', 'today'])).toBe(
      'The book does not cover "gold" or "today", so I can\'t answer that from it.',
    );
  });
});
