import { describe, expect, it } from 'vitest';
import { RouteResult } from '../../schema/index.js';
import { TEST_PHASE_SETTINGS, testRoutingModels } from '../../test/routing-phases.js';
import { decideClause, PHASES } from './decide-clause.js';

describe('decideClause', () => {
  it('asks the subject check and the definition form before keywords, the classifier last', () => {
    expect(PHASES.map((phase) => phase.name)).toEqual([
      'offTopicPhase',
      'bookStructurePhase',
      'definitionPhase',
      'keywordPhase',
      'bookHomePhase',
      'unknownWordsPhase',
      'intentPhase',
    ]);
  });
  it('returns a valid route result with secondary agents and the spelling corrections it read', () => {
    const { result } = decideClause(
      testRoutingModels().plain,
      'What hardware do I need for the capstnoe?',
      TEST_PHASE_SETTINGS,
    );
    expect(RouteResult.parse(result)).toEqual(result);
    expect(result.primaryAgent).toBe('hardware');
    expect(result.secondaryAgents).toEqual(['capstone']);
    expect(result.isMultiDomain).toBe(true);
    expect(result.routingReason).toMatch(/read "capstnoe" as "capstone"/);
  });
});
