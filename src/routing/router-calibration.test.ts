import { describe, expect, it } from 'vitest';
import { TEST_PHASE_SETTINGS, testRoutingModels } from '../test/routing-phases.js';
import { calibrateConfidence } from './confidence-calibration.js';
import { fitRouterCalibration } from './router-calibration.js';

describe('fitRouterCalibration', () => {
  it('fits on held-out folds of the agents’ examples and maps confidences monotonically', () => {
    const calibration = fitRouterCalibration(testRoutingModels().plain, TEST_PHASE_SETTINGS);
    expect(calibration).toBeDefined();
    const low = calibrateConfidence(calibration, 0.55, 'intent');
    const high = calibrateConfidence(calibration, 0.99, 'intent');
    expect(high).toBeGreaterThan(low);
    expect(high).toBeLessThanOrEqual(1);
  });
});
