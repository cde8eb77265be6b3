import { describe, expect, it } from 'vitest';
import { testRoutingModels } from '../test/routing-phases.js';
import { mistypedFunctionWord } from './routing-model.js';

describe('mistypedFunctionWord', () => {
  it('reads a short question or function word typed with a letter swapped, added or left out', () => {
    expect(mistypedFunctionWord('waht')).toBe('what');
    expect(mistypedFunctionWord('teh')).toBe('the');
    expect(mistypedFunctionWord('whcih')).toBe('which');
    expect(mistypedFunctionWord('whhat')).toBe('what');
    expect(mistypedFunctionWord('wht')).toBe('what');
    expect(mistypedFunctionWord('whch')).toBe('which');
  });
  it('leaves alone a word that is already one, one no swap makes one, and an ambiguous one', () => {
    expect(mistypedFunctionWord('what')).toBeUndefined();
    expect(mistypedFunctionWord('urdf')).toBeUndefined();
    // "hwo" is "how" or "who": no telling which.
    expect(mistypedFunctionWord('hwo')).toBeUndefined();
    expect(mistypedFunctionWord('ab')).toBeUndefined();
    // Four letters losing one onto a function word is too often another word.
    expect(mistypedFunctionWord('todo')).toBeUndefined();
  });
});

describe('RoutingModel.readQuestionWords', () => {
  it('writes mistyped question words as meant, keeping their capital, and says which', () => {
    const { plain } = testRoutingModels();
    expect(plain.readQuestionWords('Waht is a costmap, and wht does it mark?')).toEqual({
      text: 'What is a costmap, and what does it mark?',
      corrections: [
        ['waht', 'what'],
        ['wht', 'what'],
      ],
    });
  });
  it("leaves English words, the agents' words and parts of longer names alone", () => {
    const { plain } = testRoutingModels();
    const query = 'Does the hat fit on a g5xlarge node? Count the TODO comments.';
    expect(plain.readQuestionWords(query)).toEqual({ text: query, corrections: [] });
  });
});
