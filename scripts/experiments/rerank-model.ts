import { z } from 'zod';
import { CohortError } from '../../src/errors/index.js';
import { RERANK_FEATURES, type RerankFeature } from './rerank-features.js';

/**
 * A fitted reranker: a linear score over standardised features (see `rerank-features.ts`). Plain
 * data, written by `npx tsx scripts/experiments/fit-reranker.ts`; a ranker only applies it.
 */
export const RerankModel = z.object({
  /** Feature names, in the order of `weights`; every one must be a known feature. */
  features: z.array(z.enum(RERANK_FEATURES)).min(1),
  /** Per-feature mean and scale the features are standardised with before weighting. */
  mean: z.array(z.number()),
  scale: z.array(z.number().positive()),
  weights: z.array(z.number()),
  /** How many first-stage candidates are reranked. */
  depth: z.number().int().min(1).max(1000),
  /** What it was fitted on, for the record. */
  fittedOn: z.string(),
});
export type RerankModel = z.infer<typeof RerankModel>;

/**
 * Validates a model: the arrays must match its feature list in length.
 *
 * @example
 * const model = parseRerankModel(JSON.parse(text));
 */
export function parseRerankModel(value: unknown): RerankModel {
  const parsed = RerankModel.safeParse(value);
  if (!parsed.success) {
    throw new CohortError('invalid_input', `Reranker model: ${parsed.error.message}`);
  }
  const model = parsed.data;
  const n = model.features.length;
  if (model.mean.length !== n || model.scale.length !== n || model.weights.length !== n) {
    throw new CohortError(
      'invalid_input',
      `Reranker model: mean, scale and weights must each have ${n} entries, one per feature.`,
    );
  }
  return model;
}

/** Column of each of the model's features in a full feature vector. */
function columns(model: Pick<RerankModel, 'features'>): number[] {
  return model.features.map((name) => RERANK_FEATURES.indexOf(name));
}

/**
 * A scorer for full feature vectors (in `RERANK_FEATURES` order) under `model`.
 *
 * @example
 * const score = rerankScorer(model);
 * rows.map(score);
 */
export function rerankScorer(model: RerankModel): (row: Float64Array) => number {
  const cols = columns(model);
  return (row) => {
    let score = 0;
    for (let i = 0; i < cols.length; i++) {
      const x =
        ((row[cols[i] as number] as number) - (model.mean[i] as number)) /
        (model.scale[i] as number);
      score += x * (model.weights[i] as number);
    }
    return score;
  };
}

/** One training question: its candidates' full feature vectors and which of them are gold. */
export interface RerankExample {
  rows: readonly Float64Array[];
  gold: readonly boolean[];
}

const round = (v: number) => Math.round(v * 1e4) / 1e4;

/** Solves `a x = b` by Gauss-Jordan elimination with partial pivoting (a small dense system). */
export function solveLinear(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let i = 0; i < n; i++) {
    let pivot = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(m[r]![i]!) > Math.abs(m[pivot]![i]!)) pivot = r;
    [m[i], m[pivot]] = [m[pivot]!, m[i]!];
    for (let r = 0; r < n; r++) {
      if (r === i) continue;
      const f = m[r]![i]! / m[i]![i]!;
      for (let c = i; c <= n; c++) m[r]![c]! -= f * m[i]![c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/**
 * Fits a model: features standardised over every candidate, then a ridge-penalised pairwise
 * logistic regression (each gold candidate against each other candidate of its question, every
 * question weighing one in all) by Newton's method.
 *
 * @example
 * const model = fitRerankModel(examples, { features: ['total', 'headingOwn'], ridge: 10, depth: 50 });
 */
export function fitRerankModel(
  examples: readonly RerankExample[],
  options: { features: readonly RerankFeature[]; ridge: number; depth: number; fittedOn?: string },
): RerankModel {
  const cols = columns({ features: [...options.features] });
  const n = cols.length;
  const mean = new Array<number>(n).fill(0);
  const square = new Array<number>(n).fill(0);
  let count = 0;
  for (const example of examples)
    for (const row of example.rows) {
      count++;
      cols.forEach((c, i) => {
        mean[i]! += row[c]!;
        square[i]! += row[c]! * row[c]!;
      });
    }
  for (let i = 0; i < n; i++) mean[i]! /= Math.max(1, count);
  const scale = mean.map((m, i) =>
    Math.sqrt(Math.max(1e-6, square[i]! / Math.max(1, count) - m * m)),
  );
  const standard = (row: Float64Array) => cols.map((c, i) => (row[c]! - mean[i]!) / scale[i]!);
  const pairs: { d: number[]; w: number }[] = [];
  for (const example of examples) {
    const golds = example.rows.filter((_, i) => example.gold[i]).map(standard);
    const others = example.rows.filter((_, i) => !example.gold[i]).map(standard);
    if (golds.length === 0 || others.length === 0) continue;
    const w = 1 / (golds.length * others.length);
    for (const g of golds) for (const o of others) pairs.push({ d: g.map((v, i) => v - o[i]!), w });
  }
  let weights = new Array<number>(n).fill(0);
  for (let iteration = 0; iteration < 25; iteration++) {
    const gradient = weights.map((w) => options.ridge * w);
    const hessian = Array.from({ length: n }, (_, i) =>
      Array.from({ length: n }, (_, j) => (i === j ? options.ridge : 0)),
    );
    for (const { d, w } of pairs) {
      const z = d.reduce((sum, v, i) => sum + v * weights[i]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      for (let i = 0; i < n; i++) {
        gradient[i]! -= w * (1 - p) * d[i]!;
        for (let j = 0; j < n; j++) hessian[i]![j]! += w * p * (1 - p) * d[i]! * d[j]!;
      }
    }
    const step = solveLinear(hessian, gradient);
    weights = weights.map((w, i) => w - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return parseRerankModel({
    features: [...options.features],
    mean: mean.map(round),
    scale: scale.map(round),
    weights: weights.map(round),
    depth: options.depth,
    fittedOn: options.fittedOn ?? '',
  });
}
