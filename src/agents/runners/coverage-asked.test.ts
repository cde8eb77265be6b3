import { describe, expect, it } from 'vitest';
import { analyze } from '../../retrieval/index.js';
import { coverageAsked, mentionedInPassing } from './coverage-asked.js';
import { passageSentences } from './passage-sentences.js';

describe('coverageAsked', () => {
  it('is the thing a question asks whether the work covers', () => {
    expect(coverageAsked('Does the guide cover engine repair?')).toBe('engine repair');
    expect(coverageAsked('Will this course teach welding at all?')).toBe('welding');
    expect(coverageAsked('Does the book say anything about motors overheating?')).toBe(
      'motors overheating',
    );
    expect(coverageAsked('Is there anything in the book about walking robots?')).toBe(
      'walking robots',
    );
    expect(coverageAsked('Is there a chapter on sensor cleaning?')).toBe('sensor cleaning');
  });

  it('stops at another ask or at where to look', () => {
    expect(coverageAsked('Does the book cover SLAM, and what is a costmap?')).toBe('SLAM');
    expect(coverageAsked('Does the course discuss gait planning in the book?')).toBe(
      'gait planning',
    );
    // An outside review: "in detail" was read as part of the topic, and a false notice followed.
    expect(coverageAsked('Does the book cover inverse kinematics in detail?')).toBe(
      'inverse kinematics',
    );
    expect(coverageAsked('Does the guide discuss SLAM in depth?')).toBe('SLAM');
    expect(coverageAsked('Does the book cover "launch files"?')).toBe('launch files');
  });

  it('is undefined for a question that asks nothing of the kind', () => {
    expect(coverageAsked('What does the book say about topics?')).toBeUndefined();
    expect(coverageAsked('How do I cover a robot in the rain?')).toBeUndefined();
    expect(coverageAsked('Who is this book for?')).toBeUndefined();
  });
});

describe('mentionedInPassing', () => {
  const terms = (text: string) => analyze(text);
  const sentencesOf = passageSentences(terms);
  const uses = {
    title: 'Locomotion',
    section: 'Applications > Service Robotics',
    text: '- **Assistive Robotics**: Helping elderly people\n- **Domestic Tasks**: Cleaning, cooking, and household chores',
  };
  const kinematics = {
    title: 'Kinematics',
    section: 'Inverse Kinematics > Concept',
    text: 'Inverse kinematics solves for joint angles. It is crucial for reaching.',
  };

  it('is a thing named in one or two sentences and no heading', () => {
    // An outside review: "Does this class cover cooking?" quoted that one bullet with no notice.
    expect(mentionedInPassing('cooking', [uses, kinematics], terms, sentencesOf)).toBe(true);
    expect(mentionedInPassing('household chores', [uses], terms, sentencesOf)).toBe(true);
  });

  it('is not a thing a heading names, one named throughout, or one not named at all', () => {
    expect(mentionedInPassing('inverse kinematics', [uses, kinematics], terms, sentencesOf)).toBe(
      false,
    );
    const often = {
      title: 'Kitchens',
      text: 'Robots help with cooking. Cooking needs care. Cooking robots stir. Cooking is hard.',
    };
    expect(mentionedInPassing('cooking', [often], terms, sentencesOf)).toBe(false);
    expect(mentionedInPassing('welding', [uses], terms, sentencesOf)).toBe(false);
  });
});
