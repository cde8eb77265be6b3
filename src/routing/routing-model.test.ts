import { describe, expect, it } from 'vitest';
import { testRoutingModels } from '../test/routing-phases.js';
import { mistypedDefinitionVerb, mistypedFunctionWord } from './routing-model.js';

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
    // Pronouns are function words already: "her" is not "here" missing a letter, nor "his" "this".
    for (const word of ['her', 'his', 'him', 'hers', 'ours'])
      expect(mistypedFunctionWord(word)).toBeUndefined();
    // Four letters losing one onto a function word is too often another word.
    expect(mistypedFunctionWord('todo')).toBeUndefined();
  });
  it('leaves alone a function word of another language that is one slip from an English one', () => {
    // German "ist" is "its" with two letters swapped, French "ont" is "not", German "wer" is
    // "were" missing a letter, "als" "also", "wen" "when", Dutch "een" "been", "wat" "what",
    // Portuguese "tem" "them", French "des" and Spanish "dos" "does": each is a word as typed.
    for (const word of ['ist', 'ont', 'wer', 'als', 'wen', 'een', 'wat', 'tem', 'des', 'dos'])
      expect(mistypedFunctionWord(word)).toBeUndefined();
  });
});

describe('mistypedDefinitionVerb', () => {
  it('reads the verb of a definition typed with one slip, also a letter replaced', () => {
    expect(mistypedDefinitionVerb('maen')).toBe('mean');
    expect(mistypedDefinitionVerb('meen')).toBe('mean');
    expect(mistypedDefinitionVerb('mwans')).toBe('means');
    expect(mistypedDefinitionVerb('stnad')).toBe('stand');
    expect(mistypedDefinitionVerb('defien')).toBe('define');
  });
  it('leaves alone a verb as it is, two slips, an ambiguous word and another language', () => {
    expect(mistypedDefinitionVerb('mean')).toBeUndefined();
    expect(mistypedDefinitionVerb('moon')).toBeUndefined();
    // "stans" is "stand" with a letter replaced or "stands" missing one.
    expect(mistypedDefinitionVerb('stans')).toBeUndefined();
    // German "mein" is "mean" with a letter replaced, but a word as typed.
    expect(mistypedDefinitionVerb('mein')).toBeUndefined();
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
  it('reads a question in another language as written', () => {
    const { plain } = testRoutingModels();
    for (const query of ['Was ist ROS 2?', 'Qu’est-ce que les robots ont appris?'])
      expect(plain.readQuestionWords(query)).toEqual({ text: query, corrections: [] });
    expect(plain.analyze('Was ist ROS 2?').corrections).toEqual([]);
  });
  it("leaves English words, the agents' words and parts of longer names alone", () => {
    const { plain } = testRoutingModels();
    const query = 'Does the hat fit on a g5xlarge node? Count the TODO comments.';
    expect(plain.readQuestionWords(query)).toEqual({ text: query, corrections: [] });
  });
});

describe('RoutingModel.readQuestionWords, scanned by hand', () => {
  // What it was written as before: a regular expression with a replacer, kept here to pin the
  // hand-written scan to the same text and corrections on every kind of neighbour.
  function byExpression(
    query: string,
    meant: (word: string) => string | undefined,
  ): { text: string; corrections: Array<[string, string]> } {
    const corrections: Array<[string, string]> = [];
    const text = query.replace(/[A-Za-z]{3,7}/g, (typed, at: number) => {
      if (typed.length > 1 && typed === typed.toUpperCase()) return typed;
      if (
        /[A-Za-z0-9]/.test(query[at - 1] ?? '') ||
        /[A-Za-z0-9]/.test(query[at + typed.length] ?? '')
      )
        return typed;
      const word = typed.toLowerCase();
      const fix = meant(word);
      if (fix === undefined) return typed;
      corrections.push([word, fix]);
      return typed[0] === word[0] ? fix : fix[0]!.toUpperCase() + fix.slice(1);
    });
    return { text, corrections };
  }

  it('reads every question as the expression did', () => {
    const { plain } = testRoutingModels();
    // The model's own reading of one word, taken from a one-word question.
    const meant = (word: string) => plain.readQuestionWords(` ${word} `).corrections[0]?.[1];
    for (const query of [
      'Waht is a costmap, and wht does it mark?',
      'WAHT is it? Waht. waht? "waht" (wht) waht-wht waht_wht',
      'g5xlarge 2waht waht2 wahtwahtwaht whtwahtx cafwaht cafe\u0301 waht\u00e9 \u00e9waht',
      'whhat whch teh hwo todo Whcih WHcih wHat',
      'a ab abc abcdefg abcdefgh abcdefghijklmn abcdefghijklmnopq',
      '',
      'waht',
      '   wht   ',
    ]) {
      expect(plain.readQuestionWords(query), query).toEqual(byExpression(query, meant));
    }
  });
});
