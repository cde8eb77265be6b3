import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import { chunksHeadingNamed, headingKeys } from './heading-named.js';
import { createRanker } from './ranker.js';
import { QUERY_STOPWORDS } from './stopwords.js';
import { analyze } from './tokenizer.js';

// The shape of the ROS 2 docs' QoS page: an overview and a compatibility section naming "QoS
// policies" in their text, and the section headed "QoS policies" that lists them; other pages of
// the docs name neither word.
const page = prepareDocument(
  'concepts/qos.md',
  [
    '# Quality of Service settings',
    '',
    '## Overview',
    '',
    'ROS 2 offers QoS policies to tune communication between nodes. A set of QoS policies forms a QoS profile.',
    '',
    '## QoS policies',
    '',
    'The base profile includes settings for the following:',
    '',
    '* History',
    '',
    '  * Keep last: only store up to N samples.',
    '',
    '* Reliability',
    '',
    '  * Best effort: may lose samples if the network is not robust.',
    '',
    '## QoS compatibilities',
    '',
    'The QoS policies of a publisher and a subscription must be compatible, else no message is delivered.',
    '',
    ...['Nodes', 'Topics', 'Services', 'Actions', 'Parameters', 'Launch'].flatMap((topic) => [
      `## ${topic}`,
      '',
      `${topic} are a part of the ROS 2 graph, each described on its own page with examples.`,
      '',
    ]),
  ].join('\n'),
);

describe('sections headed by the question', () => {
  const stems = (query: string) => analyze(query, QUERY_STOPWORDS);

  it('are the sections whose own heading is every word of the question and no other', () => {
    const keys = headingKeys(page.chunks);
    const headed = (query: string) =>
      chunksHeadingNamed(keys, stems(query)).map((doc) => page.chunks[doc]?.headingPath.at(-1));
    expect(headed('What are the QoS policies?')).toEqual(['QoS policies']);
    expect(headed('Which policies does QoS have?')).toEqual(['QoS policies']);
    // A word the heading lacks, or one the question lacks.
    expect(headed('What are the QoS reliability policies?')).toEqual([]);
    expect(headed('What are QoS compatibilities?')).toEqual(['QoS compatibilities']);
    expect(headed('What are the compatibilities?')).toEqual([]);
    // One-word headings ("Overview") are named by many questions in passing.
    expect(headed('Overview')).toEqual([]);
  });

  it('rank first for that question, above sections repeating its words', () => {
    const first = (headingNamed: boolean) =>
      createRanker(page.chunks, { techniques: { wordnet: false, headingNamed } })
        .rank('What are the QoS policies?', { limit: 1 })[0]
        ?.chunk.headingPath.at(-1);
    expect(first(false)).not.toBe('QoS policies');
    expect(first(true)).toBe('QoS policies');
  });
});
