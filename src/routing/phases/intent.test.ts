import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/routing-phases.js';
import { intentPhase } from './intent.js';
import type { PhaseContext } from './phase.js';

describe('intentPhase', () => {
  it("picks the classifier's best specialist and says with what probability", () => {
    const decision = intentPhase(testContext('What hardware do I need for the capstone?'));
    expect(decision?.primary).toBe('hardware');
    expect(decision?.phase).toBe('intent');
    expect(decision?.reason).toMatch(/"specs" question, classifier picks hardware with p=/);
  });
  it('falls back when the best specialist is below the minimum confidence', () => {
    const context = testContext('Why does my robot drift in simulation?');
    const strict: PhaseContext = {
      ...context,
      settings: { ...context.settings, minConfidence: 1.01 },
    };
    const decision = intentPhase(strict);
    expect(decision?.primary).toBe('book');
    expect(decision?.reason).toMatch(/no phase is sure/);
  });
});
