import { describe, expect, it } from 'vitest';
import { readRequest, type VerbCheck } from './request-reading.js';

// A fixed verb list, so these tests say exactly what counts as a verb.
const verbs: VerbCheck = {
  isVerb: (word) =>
    [
      'add',
      'build',
      'design',
      'fix',
      'lay out',
      'map out',
      'rename',
      'review',
      'simplify',
      'work out',
      'implement',
      'get',
    ].includes(word),
};

describe('readRequest', () => {
  it('finds the head verb of each clause that asks, after polite openings', () => {
    const reading = readRequest('Could you please rename the helpers and fix the crash?', verbs);
    expect(reading.clauses.map((clause) => clause.head)).toEqual(['rename', 'fix']);
    // "Could you …?" is a request, not a question.
    expect(reading.question).toBeUndefined();
  });

  it('reads a phrasal verb as one head', () => {
    expect(readRequest('Map out the modules first.', verbs).clauses[0]?.head).toBe('map out');
  });

  it('sets scene clauses apart: "before implementing it" is not what is asked', () => {
    const reading = readRequest(
      'Before implementing the importer, work out which stages it needs.',
      verbs,
    );
    expect(reading.clauses.map((clause) => clause.role)).toEqual(['scene', 'asks']);
    expect(reading.asked).not.toContain('implementing');
    // A scene that starts mid-clause is cut off too.
    expect(readRequest('Design the cache before anyone builds it.', verbs).asked).toBe(
      'Design the cache',
    );
  });

  it('sets apart what is ruled out and what must stay as it is', () => {
    const reading = readRequest(
      "Don't add anything new, just simplify the loader, with no behaviour change.",
      verbs,
    );
    expect(reading.clauses.map((clause) => clause.role)).toEqual(['ruled-out', 'asks', 'keeps']);
    expect(reading.ruledOut).toContain('add anything new');
    expect(reading.clauses[1]?.head).toBe('simplify');
    // A constraint inside the asking clause is cut from it.
    expect(readRequest('Simplify the parser without changing its output.', verbs).asked).toBe(
      'Simplify the parser',
    );
  });

  it('takes the noun of "I need a …" as the head', () => {
    expect(
      readRequest('I need a high-level design for the queue.', verbs).clauses[0],
    ).toMatchObject({ head: 'design', headIsVerb: false });
  });

  it('has no head for a statement or a light verb', () => {
    expect(readRequest('The export drops the last row.', verbs).clauses[0]?.head).toBeUndefined();
    expect(readRequest('Get the checkout test to pass.', verbs).clauses[0]?.head).toBeUndefined();
  });

  it('tells questions that ask for a decision from questions that ask for an explanation', () => {
    expect(readRequest('Should we cache in Redis or in memory?', verbs).question).toBe('decide');
    expect(readRequest('Redis or Memcached for our sessions?', verbs).question).toBe('decide');
    expect(readRequest('How does garbage collection work?', verbs).question).toBe('explain');
    expect(readRequest('Which is faster in C, a switch or a table?', verbs).question).toBe(
      'explain',
    );
  });
});
