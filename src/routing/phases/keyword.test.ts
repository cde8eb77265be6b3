import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/routing-phases.js';
import { keywordPhase, keywordWins } from './keyword.js';

describe('keywordPhase', () => {
  it('decides on one specialist with strong keywords and names them', () => {
    const decision = keywordPhase(testContext('Capstone milestones'));
    expect(decision?.primary).toBe('capstone');
    expect(decision?.phase).toBe('keyword');
    expect(decision?.reason).toMatch(/capstone keywords matched/);
    expect(decision?.scores.capstone).toBeGreaterThanOrEqual(0.7);
  });
  it('gives every specialist its keyword score, strongest first', () => {
    const context = testContext('Capstone milestones');
    const decision = keywordPhase(context);
    expect(Object.entries(decision?.scores ?? {})).toEqual(
      context.byKeyword.map(({ agent, score }) => [agent.name, score]),
    );
    expect(Object.keys(decision?.scores ?? {})[0]).toBe('capstone');
  });
  it('does not decide when two specialists have keywords in the query', () => {
    const context = testContext('What hardware do I need for the capstone?');
    expect(keywordWins(context)).toBe(false);
    expect(keywordPhase(context)).toBeUndefined();
  });
});
