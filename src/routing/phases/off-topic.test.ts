import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/routing-phases.js';
import { offTopicPhase } from './off-topic.js';

describe('offTopicPhase', () => {
  it('sends a word the book never uses to the default agent, naming the word', () => {
    const decision = offTopicPhase(testContext("What does 'wanderlust' mean?"));
    expect(decision?.primary).toBe('book');
    expect(decision?.phase).toBe('fallback');
    expect(decision?.reason).toContain('does not cover "wanderlust"');
    // The uncovered words travel with the decision, so the fallback agent can name them.
    expect(decision?.offTopic).toEqual({ subject: ['wanderlust'], uncovered: ['wanderlust'] });
  });
  it('sends arithmetic to the default agent, with or without book knowledge', () => {
    for (const model of ['plain', 'grounded'] as const) {
      const decision = offTopicPhase(testContext('What is 7 times 8?', model));
      expect(decision?.offTopic).toBeUndefined();
      expect(decision?.primary).toBe('book');
      expect(decision?.reason).toMatch(/arithmetic/);
    }
  });
  it('lets a book subject through, and judges nothing without book knowledge', () => {
    expect(offTopicPhase(testContext('What exactly is a node in ROS 2?'))).toBeUndefined();
    expect(offTopicPhase(testContext("What does 'wanderlust' mean?", 'plain'))).toBeUndefined();
  });
});
