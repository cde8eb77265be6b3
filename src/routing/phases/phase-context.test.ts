import { describe, expect, it } from 'vitest';
import { TEST_PHASE_SETTINGS, testRoutingModels } from '../../test/routing-phases.js';
import { phaseContext } from './phase-context.js';

describe('phaseContext', () => {
  it('ranks specialists by keyword score and finds the definer', () => {
    const context = phaseContext(
      testRoutingModels().plain,
      'Capstone milestones',
      TEST_PHASE_SETTINGS,
    );
    expect(context.byKeyword[0]?.agent.name).toBe('capstone');
    expect(context.specialists.map((agent) => agent.name)).not.toContain('book');
    expect(context.definer?.name).toBe('glossary');
  });
  it('takes the form it is given over the one its words show', () => {
    const model = testRoutingModels().plain;
    const query = 'I keep hearing about topics, I am lost';
    expect(phaseContext(model, query, TEST_PHASE_SETTINGS).intent).not.toBe('definition');
    expect(phaseContext(model, query, TEST_PHASE_SETTINGS, 'definition').intent).toBe('definition');
  });
});
