import { describe, expect, it } from 'vitest';
import { CohortError } from '../errors/index.js';
import { parseRoutingSet } from './routing-set.js';
import { casesOfSplit, parseSplit } from './split.js';

const agents = ['book', 'glossary', 'hardware'];
const line = (value: object) => JSON.stringify(value);

/** The error `work` throws. */
function thrown(work: () => unknown): CohortError {
  try {
    work();
  } catch (error) {
    if (error instanceof CohortError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('parseRoutingSet', () => {
  it('refuses an agent or secondary agent the assistant does not have, naming the line and the agents', () => {
    // Counted as misses before: a typo in the set lowered the accuracy without a word.
    const text = [
      line({ query: 'What is a topic?', agent: 'glossary' }),
      '',
      line({ query: 'Which GPU?', agent: 'hardwre' }),
      line({ query: 'Topic and GPU', agent: 'glossary', secondary: ['hardware', 'chef'] }),
    ].join('\n');
    const error = thrown(() => parseRoutingSet(text, 'set.jsonl', { agents }));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe(
      [
        'set.jsonl:3: agent "hardwre" is not an agent of this assistant',
        'set.jsonl:4: secondary agent "chef" is not an agent of this assistant',
        'The agents are: book, glossary, hardware (cohort agents lists them). Nothing was evaluated: correct the set and run it again.',
      ].join('\n'),
    );
  });

  it('refuses a split other than tune or heldout on a line, and lists at most five problems', () => {
    const text = [
      line({ query: 'q', agent: 'book', split: 'held-out' }),
      ...Array.from({ length: 6 }, () => line({ query: 'q', agent: 'nobody' })),
    ].join('\r\n');
    const error = thrown(() => parseRoutingSet(text, 'set.jsonl', { agents }));
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('set.jsonl:1: split "held-out" must be tune or heldout');
    expect(lines[5]).toBe('… and 2 more');
    expect(lines).toHaveLength(7);
  });

  it('keeps the cases of the split asked for, and refuses a split no case has', () => {
    const text = [
      line({ query: 'a', agent: 'book', split: 'tune' }),
      line({ query: 'b', agent: 'glossary', split: 'heldout' }),
    ].join('\n');
    expect(parseRoutingSet(text, 'set.jsonl', { agents, split: 'heldout' })).toEqual([
      { query: 'b', agent: 'glossary', secondary: [], split: 'heldout' },
    ]);
    expect(parseRoutingSet(text, 'set.jsonl', { agents })).toHaveLength(2);
    expect(thrown(() => casesOfSplit([{ split: 'tune' }], 'heldout', 'routing case')).message).toBe(
      'No routing case has split "heldout" (the file has: tune).',
    );
  });
});

describe('parseSplit', () => {
  it('takes tune or heldout and refuses anything else, naming the value and the allowed ones', () => {
    expect(parseSplit(undefined)).toBeUndefined();
    expect(parseSplit('tune')).toBe('tune');
    expect(parseSplit('heldout')).toBe('heldout');
    for (const value of ['test', '', 'Tune', 'held-out'])
      expect(thrown(() => parseSplit(value))).toMatchObject({
        code: 'invalid_input',
        message: `--split must be one of "tune", "heldout", not ${JSON.stringify(value)}.`,
      });
  });
});
