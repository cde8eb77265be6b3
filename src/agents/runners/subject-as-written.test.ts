import { describe, expect, it } from 'vitest';
import { analyze, QUERY_STOPWORDS } from '../../retrieval/index.js';
import type { RetrievedChunk } from '../../schema/index.js';
import { questionSubject } from './question-subject.js';
import { selectSentences } from './select-sentences.js';
import { subjectAsWritten } from './subject-as-written.js';

const chunk = (section: string, text: string, score: number): RetrievedChunk => ({
  id: section,
  text,
  source: 'ros2.md',
  title: 'ROS 2',
  section,
  score,
  domain: 'module_info',
  metadata: {},
});

const terms = (text: string) => analyze(text);
const options = {
  terms,
  queryTerms: (text: string) => analyze(text, QUERY_STOPWORDS),
  style: 'explanation' as const,
};

// The textbook's QoS section, and two passages the ranking finds beside it for "ros2".
const QOS = chunk(
  'Quality of Service (QoS)',
  [
    'QoS policies in ROS 2 allow fine-tuning of communication behavior:',
    '',
    '- **Reliability**: Guaranteed delivery vs. best-effort',
    '- **Durability**: Keep last message vs. volatile',
  ].join('\n'),
  0.61,
);
const WEEK = chunk('Week 4', '- Quality of Service (QoS) policies.\n- Topics and services.', 0.51);
const NAV2 = chunk(
  'Navigation Stack Components',
  '- **Global Planner**: Path planning from start to goal\n- **Local Planner**: Obstacle avoidance',
  0.4,
);

describe('subjectAsWritten', () => {
  it('reads a head no passage writes as the word one edit from it that they write', () => {
    // "polices" is English (so neither speller touches it) and the book never writes it.
    const subject = subjectAsWritten(questionSubject('explain ros2 qos polices'), [QOS, WEEK], {
      terms,
    });
    expect(subject).toMatchObject({ head: 'policies', phrase: 'ros2 qos policies' });
    // A slip and a plural at once: the stems are one edit apart (planer / planner).
    expect(subjectAsWritten(questionSubject('explain nav2 planers'), [NAV2], { terms }).head).toBe(
      'planner',
    );
  });

  it('leaves a head the passages write, a word with no near spelling there, and names', () => {
    for (const query of ['explain ros2 qos policies', 'What is a gyrocompass?', 'What is an IMU?'])
      expect(subjectAsWritten(questionSubject(query), [QOS, WEEK], { terms })).toEqual(
        questionSubject(query),
      );
  });

  it('leaves the subject as asked when the router found words outside the book', () => {
    const asked = questionSubject('explain ros2 qos polices');
    expect(subjectAsWritten(asked, [QOS], { terms, requireSubject: true })).toBe(asked);
  });
});

describe('selectSentences: a subject written as another English word', () => {
  it('answers "explain ros2 qos polices" from the QoS section, as "ros2 qos polices" is', () => {
    // It answered "I couldn't find relevant information": the explanation form made "polices"
    // the subject every sentence had to name; without "explain" there is no subject to name.
    const picked = selectSentences('explain ros2 qos polices', [QOS, WEEK], options);
    expect(picked[0]?.text).toBe(
      'QoS policies in ROS 2 allow fine-tuning of communication behavior:',
    );
    expect(picked.map((sentence) => sentence.text)).toContain(
      'Reliability: Guaranteed delivery vs. best-effort',
    );
  });

  it('still picks nothing when no passage writes the subject or a word one edit from it', () => {
    expect(selectSentences('explain ros2 gyrocompasses', [QOS, WEEK], options)).toEqual([]);
  });
});
