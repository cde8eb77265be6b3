import {
  crossValidationFolds,
  fitConfidenceCalibration,
  type CalibrationPoint,
  type ConfidenceCalibration,
} from './confidence-calibration.js';
import { decideQuery } from './phases/multi-part.js';
import type { PhaseSettings } from './phases/phase.js';
import type { RoutingModel } from './routing-model.js';

/**
 * Fits the router's confidence calibration on decisions about examples the router did not train
 * on: each fold of the agents' examples is routed by a model trained on the other folds.
 *
 * @example
 * const calibration = fitRouterCalibration(model, settings);
 */
export function fitRouterCalibration(
  full: RoutingModel,
  settings: PhaseSettings,
): ConfidenceCalibration | undefined {
  const points: CalibrationPoint[] = [];
  const byAgent = new Map(
    full.agents.map((agent) => [
      agent.name,
      agent.examples.map((text, index) => ({ text, index })),
    ]),
  );
  const temperature = full.classifier.stats.temperature;
  for (const { test } of crossValidationFolds(byAgent)) {
    const held = new Set(test.map(({ label, item }) => `${label}#${item.index}`));
    // The folds reuse the full model's features and temperature; only the classifier retrains.
    const foldModel = full.fold((agent, index) => held.has(`${agent}#${index}`), temperature);
    for (const { label, item } of test) {
      const { result } = decideQuery(foldModel, item.text, settings);
      points.push({
        confidence: result.confidence,
        phase: result.phase,
        correct: result.primaryAgent === label,
      });
    }
  }
  return fitConfidenceCalibration(points);
}
