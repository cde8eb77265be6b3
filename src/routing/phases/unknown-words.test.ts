import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/routing-phases.js';
import { unknownWordsPhase } from './unknown-words.js';

describe('unknownWordsPhase', () => {
  it('sends a query no specialist knows a word of to the default agent', () => {
    const decision = unknownWordsPhase(testContext('Unknown random query', 'plain'));
    expect(decision?.primary).toBe('book');
    expect(decision?.phase).toBe('fallback');
    expect(decision?.reason).toMatch(/no word of the query is known/);
  });
  it('lets a query with specialist words through', () => {
    expect(
      unknownWordsPhase(testContext('Why does my robot drift in simulation?')),
    ).toBeUndefined();
  });
  it('lets a query through when no specialist knows its words but the book covers them together', () => {
    // The test book's glossary line: "a named bus over which nodes exchange messages".
    const context = testContext('which named bus carries messages');
    expect(context.analyzed.onTopic).toBe(false);
    expect(unknownWordsPhase(context)).toBeUndefined();
    expect(
      unknownWordsPhase(testContext('which named bus carries messages', 'plain'))?.primary,
    ).toBe('book');
  });
});
