import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/routing-phases.js';
import { bookHomePhase, subjectHome } from './book-home.js';

describe('bookHomePhase', () => {
  it('sends a question with no specialist word to the agent whose chapters hold its subject', () => {
    const decision = bookHomePhase(testContext('Can my old gaming rig cope?'));
    expect(decision?.primary).toBe('hardware');
    expect(decision?.reason).toMatch(/mostly in hardware's chapters \(100%\)/);
  });
  it('needs book knowledge, and leaves questions specialists know to other phases', () => {
    expect(bookHomePhase(testContext('Can my old gaming rig cope?', 'plain'))).toBeUndefined();
    expect(bookHomePhase(testContext('Capstone milestones'))).toBeUndefined();
  });
  it('finds no home for a subject spread over several chapters', () => {
    expect(subjectHome(testContext('What exactly is a node in ROS 2?'))).toBeUndefined();
  });
});
