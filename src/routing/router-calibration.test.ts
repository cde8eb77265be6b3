import { describe, expect, it } from 'vitest';
import { TEST_PHASE_SETTINGS, testRoutingModels } from '../test/routing-phases.js';
import { createBookRegistry } from './book-registry.js';
import { calibrateConfidence, FIELD_CALIBRATION } from './confidence-calibration.js';
import { createRouter } from './router.js';
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

describe('field calibration stage', () => {
  it('lowers a near-certain decision, keeps the order of confidences, and can be switched off', () => {
    const registry = createBookRegistry();
    const withField = createRouter(registry);
    const without = createRouter(registry, { fieldCalibration: false });
    const query = 'Which GPU should I buy for training humanoid policies?';
    const raw = without.route(query).confidence;
    const field = withField.route(query).confidence;
    expect(raw).toBeGreaterThan(0.95);
    expect(field).toBeLessThan(raw);
    expect(field).toBeGreaterThan(0.9);
    expect(calibrateConfidence(FIELD_CALIBRATION, 0.6, 'intent')).toBeLessThan(
      calibrateConfidence(FIELD_CALIBRATION, 0.9, 'intent'),
    );
  });
});
