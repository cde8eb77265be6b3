import { describe, expect, it } from 'vitest';
import * as cohort from './index.js';

// The specs' functions that docs/specs.md names are part of the package, under their names.
describe("the specs' named functions, from the package", () => {
  it('exports canHandle (BaseAgent.can_handle) and routeSourceNecessity', () => {
    const capstone = { name: 'capstone', keywords: ['capstone', 'milestone', 'final project'] };
    expect(cohort.canHandle(capstone, 'Capstone milestones')).toBeGreaterThanOrEqual(0.7);
    expect(cohort.canHandle(capstone, 'tell me a joke')).toBe(0);
    expect(typeof cohort.routeSourceNecessity).toBe('function');
  });
});
