import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/routing-phases.js';
import { secondaryAgents } from './secondary.js';

describe('secondaryAgents', () => {
  it('adds a specialist the question names by a subject keyword', () => {
    expect(
      secondaryAgents(
        testContext('What hardware do I need for the capstone?', 'plain'),
        'hardware',
      ),
    ).toEqual(['capstone']);
  });
  it('adds none to a definition or to the default agent', () => {
    const context = testContext('What hardware do I need for the capstone?', 'plain');
    expect(secondaryAgents(context, 'glossary')).toEqual([]);
    expect(secondaryAgents(context, 'book')).toEqual([]);
  });
});
