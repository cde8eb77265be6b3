import { describe, expect, it } from 'vitest';
import { formatSourcesFooter, hasSourcesFooter, splitSourcesFooter } from './sources-footer.js';

describe('splitSourcesFooter', () => {
  it('separates the Sources footer and keeps the notice after it in the body', () => {
    const answer =
      'A topic is a channel [1].\n\n---\n**Sources:**\n[1] topics.md § Topics (score: 0.90)\n[2] b.md\n\n_Extractive mode: no model._';
    expect(splitSourcesFooter(answer)).toEqual({
      body: 'A topic is a channel [1].\n\n_Extractive mode: no model._',
      sources: ['[1] topics.md § Topics (score: 0.90)', '[2] b.md'],
    });
  });

  it('leaves an answer without a footer alone', () => {
    expect(splitSourcesFooter('No sources here.')).toEqual({
      body: 'No sources here.',
      sources: [],
    });
  });
});

describe('formatSourcesFooter', () => {
  it('writes the footer that splitSourcesFooter and hasSourcesFooter read back', () => {
    const footer = formatSourcesFooter([
      { index: 1, source: 'topics.md', title: 'Topics', section: 'Topics', relevanceScore: 0.9 },
    ]);
    expect(footer).toBe('\n\n---\n**Sources:**\n[1] topics.md § Topics (score: 0.90)');
    expect(hasSourcesFooter(`A topic [1].${footer}`)).toBe(true);
    expect(hasSourcesFooter('A topic [1].')).toBe(false);
    expect(splitSourcesFooter(`A topic [1].${footer}`)).toEqual({
      body: 'A topic [1].',
      sources: ['[1] topics.md § Topics (score: 0.90)'],
    });
  });

  it('writes nothing for no citations', () => {
    expect(formatSourcesFooter([])).toBe('');
  });
});
