import { describe, expect, it } from 'vitest';
import { objectPronounAt } from './object-pronoun.js';

describe('objectPronounAt', () => {
  it('finds "it" or "them" as the object of a verb or a preposition in one clause', () => {
    expect(objectPronounAt('Which numerical methods can solve it?')).toEqual({
      index: 34,
      word: 'it',
    });
    expect(objectPronounAt('What sensors are mounted on it?')?.word).toBe('it');
    expect(objectPronounAt('How do I tune them properly?')?.word).toBe('them');
    expect(objectPronounAt('How do I install it on a Jetson?')?.index).toBe(17);
  });

  it('finds "one" standing for a new one of the earlier subject, and not a number', () => {
    // After "What is a digital twin?", this was answered from the book's "Tool Use" list.
    expect(objectPronounAt('Which tools does the book use to build one?')?.word).toBe('one');
    expect(objectPronounAt('Can I buy one for the lab?')?.word).toBe('one');
    for (const question of [
      'How much does one cost?',
      'Which one is better?',
      'Is the best one the Orin?',
      'Do I need one camera or two?',
      'Can one robot do both?',
      'Which is one of the chapters on ROS?',
    ])
      expect(objectPronounAt(question)).toBeUndefined();
  });

  it('finds none where the pronoun is a subject or may stand for a noun of the question', () => {
    for (const question of [
      'What does it stand for?',
      'How does the gripper know it is holding something fragile?',
      'How does the robot pick up a cup without dropping it?',
      'Which sensor should I buy, and how do I calibrate it?',
      'What do engineers call it when a robot slips?',
      'How does the robot get people to trust it?',
      'Is the RTX 4090 worth it for 4K gaming?',
      'can I copy some of it into my blog?',
      'The arm overshoots it. What should I tune first?',
    ])
      expect(objectPronounAt(question)).toBeUndefined();
  });
});
