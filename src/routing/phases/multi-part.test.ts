import { describe, expect, it } from 'vitest';
import { TEST_PHASE_SETTINGS, testRoutingModels } from '../../test/routing-phases.js';
import { decideQuery } from './multi-part.js';

const decide = (query: string) =>
  decideQuery(testRoutingModels().grounded, query, TEST_PHASE_SETTINGS);

describe('decideQuery', () => {
  it('takes the primary agent from the first ask and a secondary from a later ask', () => {
    const { result, clauses } = decide('How do Gazebo joints move, and what does revolute mean?');
    expect(result.primaryAgent).toBe('module_info');
    expect(result.secondaryAgents).toEqual(['glossary']);
    expect(clauses.map((clause) => clause.agent)).toEqual(['module_info', 'glossary']);
    expect(result.routingReason).toMatch(/^Multi-part question \(2 asks\)/);
  });
  it('reads the form from the one ask after some context', () => {
    const { result, clauses } = decide('I am new to robotics. What is a topic?');
    expect(result.primaryAgent).toBe('glossary');
    expect(clauses).toEqual([]);
  });
});
