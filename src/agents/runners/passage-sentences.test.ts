import { describe, expect, it } from 'vitest';
import { analyze, QUERY_STOPWORDS } from '../../retrieval/index.js';
import type { RetrievedChunk } from '../../schema/index.js';
import { cachedPassageSentences, passageSentences } from './passage-sentences.js';
import { selectSentences } from './select-sentences.js';
import { splitSentences } from './sentences.js';

const terms = (text: string) => analyze(text);
const PASSAGE = [
  'A ROS 2 topic is a named bus. Nodes publish to it and subscribe to it.',
  '',
  '- **QoS**: the delivery rules of a topic',
  '1. Start the talker node.',
].join('\n');

describe('passage sentences', () => {
  it("are the passage's sentences, each with its terms", () => {
    const sentences = passageSentences(terms)(PASSAGE);
    expect(sentences.map(({ terms: _terms, ...sentence }) => sentence)).toEqual(
      splitSentences(PASSAGE),
    );
    sentences.forEach((sentence) => expect(sentence.terms).toEqual(new Set(terms(sentence.text))));
  });

  it('are worked out once per passage and kept up to the limit, the oldest dropped first', () => {
    const sentencesOf = cachedPassageSentences(terms, 2);
    const first = sentencesOf(PASSAGE);
    expect(sentencesOf(PASSAGE)).toBe(first);
    expect(first).toEqual(passageSentences(terms)(PASSAGE));
    sentencesOf('Second passage.');
    sentencesOf('Third passage.');
    expect(sentencesOf(PASSAGE)).not.toBe(first);
    expect(sentencesOf(PASSAGE)).toEqual(first);
  });

  it('kept or not, select the same sentences, question after question', () => {
    const chunk = (section: string, text: string, score: number): RetrievedChunk => ({
      id: section,
      text,
      source: 'ros.md',
      title: 'ROS 2',
      section,
      score,
      domain: 'module_info',
      metadata: {},
    });
    const chunks = [
      chunk('Topics', PASSAGE, 0.9),
      chunk('Nodes', 'A node is a process that computes. Nodes talk over topics.', 0.7),
    ];
    const options = {
      terms,
      queryTerms: (text: string) => analyze(text, QUERY_STOPWORDS),
      style: 'general' as const,
    };
    const sentences = cachedPassageSentences(terms);
    for (const query of ['What is a topic?', 'How do nodes talk?', 'What is QoS?', 'Start talker'])
      for (let round = 0; round < 2; round++)
        expect(selectSentences(query, chunks, { ...options, sentences })).toEqual(
          selectSentences(query, chunks, options),
        );
  });
});

describe('splitSentences', () => {
  it('quotes the words of a drawn diagram without its lines', () => {
    // A box diagram outside a code fence was quoted as "│ Hardware Interface Layer │."
    const drawn = [
      'The architecture has layers.',
      '┌──────────────────────────┐',
      '│  Hardware Interface Layer │',
      '│  • Sensor drivers         │',
      '└──────────────────────────┘',
    ].join('\n');
    expect(splitSentences(drawn).map((sentence) => sentence.text)).toEqual([
      'The architecture has layers.',
      'Hardware Interface Layer',
      'Sensor drivers',
    ]);
  });

  it('reads a fenced diagram of stacked boxes as its words, a bracketed line with its box', () => {
    // A section cut in two had a diagram of layers as its first part, in a code block: nothing of
    // it could be quoted, so "which layer handles grasp planning?" cited other sections.
    const drawn = [
      '```',
      '┌──────────────────────────────┐',
      '│      Reasoning Layer         │',
      '│  (Goal selection, scheduling)│',
      '└──────────────┬───────────────┘',
      '               │',
      '┌──────────────▼───────────────┐',
      '│      Manipulation Layer      │',
      '│  • Grasp planning            │',
      '└──────────────────────────────┘',
      '```',
      'Each layer hands work to the one below.',
    ].join('\n');
    expect(splitSentences(drawn).map((sentence) => sentence.text)).toEqual([
      'Reasoning Layer (Goal selection, scheduling)',
      'Manipulation Layer',
      'Grasp planning',
      'Each layer hands work to the one below.',
    ]);
  });

  it('keeps boxes drawn side by side and file trees as code', () => {
    // Side by side, a line holds the words of two boxes ("Camera Lidar"); a tree is a listing.
    const sideBySide = [
      'The sensors feed the fusion stage:',
      '```',
      '┌────────┐   ┌────────┐',
      '│ Camera │──►│ Fusion │',
      '└────────┘   └────────┘',
      '```',
    ].join('\n');
    const tree = [
      'The workspace looks like this:',
      '```',
      'ws/',
      '├── src',
      '└── build',
      '```',
    ].join('\n');
    for (const text of [sideBySide, tree]) {
      const sentences = splitSentences(text);
      expect(sentences).toHaveLength(1);
      expect(sentences[0]?.code).toBeDefined();
    }
  });
});
