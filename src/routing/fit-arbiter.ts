import type { ArbiterFeature, RoutingArbiterModel } from './arbiter.js';
import { softmax } from './softmax.js';

/** One labelled decision to fit on: the arbiter's features of a question and its right agent. */
export interface ArbiterExample {
  features: readonly ArbiterFeature[];
  agent: string;
}

/** Settings of {@link fitArbiter}. */
export interface FitArbiterOptions {
  agents: readonly string[];
  defaultAgent: string;
  charGrams: boolean;
  /** L2 penalty on the weights (not the bias), scaled by the number of examples. */
  ridge: number;
  /** A feature seen in fewer examples is left out (default 2): one question's quirk is no rule. */
  minCount?: number;
  /** Full-batch gradient steps (default 300) and their size (default 0.5). */
  epochs?: number;
  learningRate?: number;
}

/** Weights smaller than this are dropped from the saved model: they change no decision. */
const KEEP_WEIGHT = 0.01;

/**
 * Fits the arbiter's multinomial logistic regression by full-batch gradient descent from zero
 * (deterministic: the same examples give the same model).
 *
 * @example
 * fitArbiter(examples, { agents, defaultAgent: 'book', charGrams: false, ridge: 2 });
 */
export function fitArbiter(
  examples: readonly ArbiterExample[],
  options: FitArbiterOptions,
): RoutingArbiterModel {
  const { agents } = options;
  const classes = agents.length;
  const counts = new Map<string, number>();
  for (const { features } of examples)
    for (const [name] of features) counts.set(name, (counts.get(name) ?? 0) + 1);
  const index = new Map<string, number>();
  for (const [name, count] of counts)
    if (count >= (options.minCount ?? 2)) index.set(name, index.size);
  const rows = examples.map(({ features, agent }) => {
    const label = agents.indexOf(agent);
    if (label < 0) throw new RangeError(`The label "${agent}" is not one of ${agents.join(', ')}.`);
    const cols: number[] = [];
    const values: number[] = [];
    for (const [name, value] of features) {
      const col = index.get(name);
      if (col === undefined) continue;
      cols.push(col);
      values.push(value);
    }
    return { label, cols, values };
  });
  const n = Math.max(1, rows.length);
  const weights = new Float64Array(index.size * classes);
  const bias = new Float64Array(classes);
  const gradient = new Float64Array(weights.length);
  const biasGradient = new Float64Array(classes);
  const rate = options.learningRate ?? 0.5;
  for (let epoch = 0; epoch < (options.epochs ?? 300); epoch += 1) {
    gradient.fill(0);
    biasGradient.fill(0);
    for (const { label, cols, values } of rows) {
      const logits = Array.from(bias);
      cols.forEach((col, i) => {
        for (let k = 0; k < classes; k += 1) logits[k]! += weights[col * classes + k]! * values[i]!;
      });
      const p = softmax(logits);
      for (let k = 0; k < classes; k += 1) {
        const error = p[k]! - (k === label ? 1 : 0);
        biasGradient[k]! += error;
        cols.forEach((col, i) => {
          gradient[col * classes + k]! += error * values[i]!;
        });
      }
    }
    for (let j = 0; j < weights.length; j += 1)
      weights[j]! -= (rate * (gradient[j]! + options.ridge * weights[j]!)) / n;
    for (let k = 0; k < classes; k += 1) bias[k]! -= (rate * biasGradient[k]!) / n;
  }
  const saved: Record<string, number[]> = {};
  for (const [name, col] of index) {
    const vector = Array.from(weights.subarray(col * classes, (col + 1) * classes));
    if (vector.some((w) => Math.abs(w) >= KEEP_WEIGHT))
      saved[name] = vector.map((w) => Math.round(w * 1000) / 1000);
  }
  return {
    version: 1,
    agents: [...agents],
    defaultAgent: options.defaultAgent,
    charGrams: options.charGrams,
    ridge: options.ridge,
    fittedOn: rows.length,
    bias: Array.from(bias, (b) => Math.round(b * 10_000) / 10_000),
    weights: saved,
  };
}
