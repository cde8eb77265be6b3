import type { RoutingPhase } from '../schema/index.js';

/** Folds of the cross-validation that fits the calibration. */
export const CALIBRATION_FOLDS = 5;
/** Fewer held-out decisions than this leave the raw confidence as it is. */
export const MIN_CALIBRATION_POINTS = 20;
/** L2 penalty on the calibration's weights: a few hundred points must not fit noise. */
export const DEFAULT_RIDGE = 20;

/**
 * How raw routing confidences map to the probability that the decision is right: a logistic
 * regression over the raw confidence's log-odds and the deciding phase, fitted on decisions about
 * examples the router did not train on (plain data, so it can be stored with the trained router).
 */
export interface ConfidenceCalibration {
  /** Weights of [log-odds of the raw confidence, fallback phase, keyword phase]. */
  weights: [number, number, number];
  bias: number;
  /** Held-out decisions it was fitted on, and how many of them were right. */
  points: number;
  correct: number;
}

/** One held-out routing decision: what the router said and whether it was right. */
export interface CalibrationPoint {
  confidence: number;
  phase: RoutingPhase;
  correct: boolean;
}

/**
 * The field stage, applied after the cross-validated one: the agents' example questions are
 * easier than what users ask (no near-misses, few typos), so a router calibrated on them alone is
 * over-confident on new questions. This map, of the same form, was fitted by
 * `npx tsx scripts/fit-field-calibration.ts` on the routers' cross-validated confidences for the
 * questions written blind that the router was tuned on (the tuning half of
 * `eval/routing-blind.jsonl` and `eval/routing-tune-extra.jsonl`), over the textbook and the
 * sample book — never on a held-out half: its ridge penalty chosen by 5-fold cross-validation over
 * those questions, then its bias lowered so that its mean confidence on them equals the router's
 * accuracy on questions it meets for the first time (93.1 %), not the 95.5 % it reaches on
 * questions it was tuned on.
 */
export const FIELD_CALIBRATION: ConfidenceCalibration | undefined = {
  weights: [0.531, 0.151, 0.093],
  bias: 0.713,
  points: 358,
  correct: 342,
};

const logit = (p: number) => {
  const q = Math.min(0.995, Math.max(0.005, p));
  return Math.log(q / (1 - q));
};
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const featuresOf = (confidence: number, phase: RoutingPhase): [number, number, number] => [
  logit(confidence),
  phase === 'fallback' ? 1 : 0,
  phase === 'keyword' ? 1 : 0,
];

/**
 * Fits the calibration by Newton's method on held-out decisions (ridge-penalised logistic
 * regression, three weights and a bias); undefined when there are too few points or they are all
 * right or all wrong.
 *
 * @example
 * const calibration = fitConfidenceCalibration(points);
 * calibrateConfidence(calibration, 0.99, 'intent'); // e.g. 0.93
 */
export function fitConfidenceCalibration(
  points: readonly CalibrationPoint[],
  options: { ridge?: number } = {},
): ConfidenceCalibration | undefined {
  const ridge = options.ridge ?? DEFAULT_RIDGE;
  const correct = points.filter((point) => point.correct).length;
  if (points.length < MIN_CALIBRATION_POINTS || correct === 0 || correct === points.length)
    return undefined;
  const rows = points.map((point) => [1, ...featuresOf(point.confidence, point.phase)]);
  const labels = points.map((point) => (point.correct ? 1 : 0));
  // Start at "raw confidence as it is": weight 1 on its log-odds.
  const beta = [0, 1, 0, 0];
  for (let iteration = 0; iteration < 50; iteration += 1) {
    const gradient = [0, 0, 0, 0];
    const hessian = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
    rows.forEach((row, n) => {
      const p = sigmoid(row.reduce((sum, x, j) => sum + x * (beta[j] ?? 0), 0));
      const error = p - (labels[n] ?? 0);
      const w = p * (1 - p);
      for (let j = 0; j < 4; j += 1) {
        gradient[j] = (gradient[j] ?? 0) + error * (row[j] ?? 0);
        for (let k = 0; k < 4; k += 1)
          hessian[j]![k] = (hessian[j]![k] ?? 0) + w * (row[j] ?? 0) * (row[k] ?? 0);
      }
    });
    // The penalty pulls the weights (not the bias) towards the identity mapping [1, 0, 0].
    const prior = [0, 1, 0, 0];
    for (let j = 1; j < 4; j += 1) {
      gradient[j] = (gradient[j] ?? 0) + ridge * ((beta[j] ?? 0) - (prior[j] ?? 0));
      hessian[j]![j] = (hessian[j]![j] ?? 0) + ridge;
    }
    const step = solve(hessian, gradient);
    if (!step) break;
    let change = 0;
    for (let j = 0; j < 4; j += 1) {
      beta[j] = (beta[j] ?? 0) - (step[j] ?? 0);
      change = Math.max(change, Math.abs(step[j] ?? 0));
    }
    if (change < 1e-8) break;
  }
  return {
    bias: beta[0] ?? 0,
    weights: [beta[1] ?? 1, beta[2] ?? 0, beta[3] ?? 0],
    points: points.length,
    correct,
  };
}

/** Gaussian elimination with partial pivoting; undefined for a singular system. */
function solve(matrix: number[][], vector: number[]): number[] | undefined {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i] ?? 0]);
  for (let column = 0; column < n; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < n; row += 1)
      if (Math.abs(a[row]![column]!) > Math.abs(a[pivot]![column]!)) pivot = row;
    if (Math.abs(a[pivot]![column]!) < 1e-12) return undefined;
    [a[column], a[pivot]] = [a[pivot]!, a[column]!];
    for (let row = 0; row < n; row += 1) {
      if (row === column) continue;
      const factor = a[row]![column]! / a[column]![column]!;
      for (let k = column; k <= n; k += 1) a[row]![k] = a[row]![k]! - factor * a[column]![k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/**
 * The calibrated probability that a decision with this raw confidence and phase is right (the raw
 * confidence when there is no calibration).
 */
export function calibrateConfidence(
  calibration: ConfidenceCalibration | undefined,
  confidence: number,
  phase: RoutingPhase,
): number {
  if (!calibration || phase === 'explicit') return confidence;
  // featuresOf's three values summed as reducing over them does, without the list (twice a route).
  const [w0, w1, w2] = calibration.weights;
  const sum =
    0 +
    logit(confidence) * (w0 ?? 0) +
    (phase === 'fallback' ? 1 : 0) * (w1 ?? 0) +
    (phase === 'keyword' ? 1 : 0) * (w2 ?? 0);
  return sigmoid(calibration.bias + sum);
}

/**
 * The folds of a cross-validation over labelled examples: fold `f` holds out every
 * `CALIBRATION_FOLDS`-th example of each label, starting at `f`, so every label is in every fold.
 *
 * @example
 * for (const { train, test } of crossValidationFolds(examplesByAgent)) { ... }
 */
export function crossValidationFolds<T>(
  byLabel: ReadonlyMap<string, readonly T[]>,
  folds: number = CALIBRATION_FOLDS,
): Array<{ train: Map<string, T[]>; test: Array<{ label: string; item: T }> }> {
  return Array.from({ length: folds }, (_, fold) => {
    const train = new Map<string, T[]>();
    const test: Array<{ label: string; item: T }> = [];
    for (const [label, items] of byLabel) {
      train.set(
        label,
        items.filter((_, i) => i % folds !== fold),
      );
      items.forEach((item, i) => {
        if (i % folds === fold) test.push({ label, item });
      });
    }
    return { train, test };
  });
}
