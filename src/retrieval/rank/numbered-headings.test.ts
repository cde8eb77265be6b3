import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import { chunksNumbered, numberedHeadings } from './numbered-headings.js';
import { createRanker } from './ranker.js';

// A workshop's plan: five numbered sessions, the second on topics (the word a question about
// another session asks with), a review bracketing two sessions, and headings that number a
// name's versions ("ROS 1", "ROS 2") or a release ("Ubuntu 22.04"), which are no series.
const page = prepareDocument(
  'workshop/plan.md',
  [
    '# Workshop plan',
    '',
    '## Session 1: Getting started',
    '',
    'Installing the tools and running a first example.',
    '',
    '## Session 2: Topics and services',
    '',
    'Topics carry messages; the topics of a graph are listed and echoed. Services answer requests.',
    '',
    '## Session 3: Robot description',
    '',
    'Links and joints of a robot model.',
    '',
    '## Session 4: Motion planning',
    '',
    'Planning a path around obstacles and following it.',
    '',
    '## Session 5: Final demo',
    '',
    'Each team shows its robot.',
    '',
    '## Review (Session 3-4)',
    '',
    'A quiz on the robot model and on planning.',
    '',
    '## ROS 1 bridge',
    '',
    'Old nodes talk to new ones through the bridge.',
    '',
    '## ROS 2 setup',
    '',
    'Sourcing the environment in every terminal.',
    '',
    '## Ubuntu 22.04 notes',
    '',
    'The supported release.',
  ].join('\n'),
);

const own = (doc: number) => page.chunks[doc]?.headingPath.at(-1);

describe('sections a question names by number', () => {
  const headings = numberedHeadings(page.chunks);
  const named = (query: string, synonyms?: (word: string) => readonly string[] | undefined) =>
    chunksNumbered(headings, query, synonyms).map(own).sort();

  it('are read from series of three numbers or more, never from versions', () => {
    expect([...headings.series.keys()]).toEqual(['session']);
  });

  it('are found by digits, number words, ordinals after "the", and "the last"', () => {
    expect(named('Which topics come up in session 4?')).toEqual([
      'Review (Session 3-4)',
      'Session 4: Motion planning',
    ]);
    expect(named('session two topics?')).toEqual(['Session 2: Topics and services']);
    expect(named('I missed the second session, what was in it?')).toEqual([
      'Session 2: Topics and services',
    ]);
    expect(named("What's in the very last session?")).toEqual(['Session 5: Final demo']);
    expect(named('Sessions 1 and 2: which comes first?')).toEqual(['Session 1: Getting started']);
  });

  it('are not found for an ordinal without "the", a number of no series, or a version', () => {
    expect(named('What did we cover last session?')).toEqual([]);
    expect(named('What is new in ROS 2?')).toEqual([]);
    expect(named('Is session 9 optional?')).toEqual([]);
    expect(named('Does it run on Ubuntu 22.04?')).toEqual([]);
  });

  it('are found through a synonym of the series word', () => {
    const synonyms = (word: string) => (word === 'meeting' ? ['session'] : undefined);
    expect(named('What happens at the third meeting?', synonyms)).toEqual([
      'Review (Session 3-4)',
      'Session 3: Robot description',
    ]);
    expect(named('What happens at the third meeting?')).toEqual([]);
  });

  it('rank first for that question, above a session that repeats its other words', () => {
    const first = (numberedHeadings: boolean) =>
      createRanker(page.chunks, { techniques: { wordnet: false, numberedHeadings } })
        .rank('Which topics come up in session 4?', { limit: 1 })[0]
        ?.chunk.headingPath.at(-1);
    expect(first(false)).toBe('Session 2: Topics and services');
    expect(first(true)).toBe('Session 4: Motion planning');
  });
});
