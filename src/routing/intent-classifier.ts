import { CohortError } from '../errors/index.js';
import { rowsWithRoom } from './rows-with-room.js';
import { softmaxInPlace } from './softmax.js';
import { trainedFeatureId, type FeatureList } from './feature-ids.js';

/** Additive (Laplace/Lidstone) smoothing of the classifier's feature counts. */
export const DEFAULT_SMOOTHING = 0.1;

/**
 * Softmax temperature used when there are too few examples to fit one (fewer than
 * {@link MIN_CALIBRATION_SAMPLES} per label): the value fitted on the book agents' examples.
 */
export const DEFAULT_TEMPERATURE = 0.25;
/** Held-out examples per label needed before the temperature is fitted rather than defaulted. */
export const MIN_CALIBRATION_SAMPLES = 5;

/** One labelled training sample: sparse weighted features. */
export interface TrainingSample {
  label: string;
  features: ReadonlyMap<string, number>;
  /** True for samples that are real example questions: only these are held out to calibrate. */
  heldOut?: boolean;
}

/** A calibrated prediction: a probability per label, and the labels best first. */
export interface Classification {
  /**
   * Each label's probability, keys in the labels' order: every classification has the same keys
   * in the same order, so the objects share one shape. (Keys in each question's order of
   * probability gave them hundreds of shapes, and every reader of them, of the scores made from
   * them and of the arbiter's evidence went the engine's slow way: routing took 1.09 × as long.)
   */
  probabilities: Record<string, number>;
  /** Best first, ties in label order. */
  ranked: Array<{ label: string; probability: number }>;
  /** Share of the query's feature weight the classifier has seen in training (0 = all unknown). */
  coverage: number;
}

/** What training measured, for reports. */
export interface ClassifierStats {
  labels: string[];
  samples: number;
  features: number;
  /** Softmax temperature: fitted on leave-one-out predictions, or the default when `calibrated` is false. */
  temperature: number;
  /** False when there were too few examples to fit the temperature. */
  calibrated: boolean;
  /** Leave-one-out accuracy on the held-out samples: an estimate of accuracy on new questions. */
  looAccuracy: number;
  /** Mean leave-one-out log loss after calibration. */
  looLogLoss: number;
  /** How many samples were held out in turn. */
  looSamples: number;
}

/**
 * Features that recur from query to query as a group (a word's character n-grams): their summed
 * contribution is computed once per key and cached, which keeps routing well under 0.1 ms.
 */
export interface FeatureBundle {
  key: string;
  features(): Iterable<readonly [string, number]>;
  /**
   * The classifier that last read the bundle and kept its summed contribution, and where that
   * sum is in the classifier's rows of sums (`summedAt`; set by it): found on the bundle, which
   * the router already holds, instead of by its key in the classifier's cache.
   */
  summedBy: object | undefined;
  summedAt: number;
}

/**
 * What a trained classifier is: everything {@link restoreIntentClassifier} needs to classify
 * exactly as it did, without training (saved with the trained router, see classifier-cache.ts).
 */
export interface ClassifierModel {
  labels: string[];
  /** log P(feature | label) per label, for every feature seen in training. */
  logProbabilities: ReadonlyMap<string, Float64Array>;
  temperature: number;
  stats: ClassifierStats;
}

/** A trained classifier. */
export interface IntentClassifier {
  /**
   * Classifies sparse features (a map, or a {@link FeatureList} with the same entries: the same
   * result to the bit) plus cached bundles; the result equals adding the bundles' features.
   */
  classify(
    features: ReadonlyMap<string, number> | FeatureList,
    bundles?: readonly FeatureBundle[],
  ): Classification;
  /** True when the feature occurred in training. */
  knows(feature: string): boolean;
  readonly stats: ClassifierStats;
  /** What it learnt, to save and restore. */
  readonly model: ClassifierModel;
}

/**
 * Trains a multinomial naive Bayes classifier over weighted sparse features, with uniform class
 * priors (so an agent with more examples is not favoured) and per-query length normalisation (the
 * mean log-likelihood per unit of feature weight, so long questions are not more confident for being
 * long). The softmax temperature is fitted by exact leave-one-out on the `heldOut` samples — naive
 * Bayes can subtract one sample's counts, so this costs one pass, not one training per sample — which
 * makes the probabilities calibrated estimates rather than raw scores.
 *
 * @example
 * const classifier = trainIntentClassifier([
 *   { label: 'glossary', features: new Map([['w:defin', 1]]), heldOut: true },
 *   { label: 'hardware', features: new Map([['w:gpu', 1]]), heldOut: true },
 * ]);
 * classifier.classify(new Map([['w:gpu', 1]])).ranked[0].label; // 'hardware'
 */
export function trainIntentClassifier(
  samples: readonly TrainingSample[],
  options: { smoothing?: number; temperature?: number } = {},
): IntentClassifier {
  const alpha = options.smoothing ?? DEFAULT_SMOOTHING;
  const labels = [...new Set(samples.map((sample) => sample.label))];
  if (labels.length === 0) {
    throw new CohortError(
      'invalid_input',
      'The intent classifier needs at least one training sample.',
    );
  }
  const index = new Map(labels.map((label, i) => [label, i]));
  const width = labels.length;
  // Counts in one flat array, a row of `width` per feature in order of first sight, instead of a
  // typed array per feature in a map: a start-up trains six classifiers (one, then one per fold of
  // the calibration), and their per-feature objects were most of its garbage and of the heap it
  // left behind. The same additions in the same order.
  const featureIndex = new Map<string, number>();
  const features: string[] = [];
  for (const sample of samples) {
    sample.features.forEach((_, feature) => {
      if (featureIndex.has(feature)) return;
      featureIndex.set(feature, features.length);
      features.push(feature);
    });
  }
  const counts = new Float64Array(features.length * width);
  const totals = new Float64Array(width);
  for (const sample of samples) {
    const c = index.get(sample.label) ?? 0;
    // forEach, not for...of: no [key, value] pair is allocated per feature.
    sample.features.forEach((value, feature) => {
      const at = (featureIndex.get(feature) as number) * width + c;
      counts[at] = (counts[at] as number) + value;
      totals[c] = (totals[c] as number) + value;
    });
  }
  const vocabulary = features.length;

  // log P(feature | label) for every seen feature: the whole model, precomputed, row by row.
  const denominators = labels.map((_, c) => Math.log((totals[c] ?? 0) + alpha * vocabulary));
  const logs = new Float64Array(counts.length);
  for (let at = 0; at < counts.length; at += 1)
    logs[at] = Math.log((counts[at] as number) + alpha) - (denominators[at % width] ?? 0);

  // A training sample's mean log-likelihood per label with its own counts taken out of its label
  // (exact leave-one-out); features no other sample has are skipped, as unseen ones are at query time.
  const leaveOneOutLogits = (features: ReadonlyMap<string, number>, label: number): number[] => {
    const logits = new Array<number>(width).fill(0);
    let seen = 0;
    let ownTotal = 0;
    features.forEach((value) => (ownTotal += value));
    const ownDenominator = Math.log((totals[label] ?? 0) - ownTotal + alpha * vocabulary);
    features.forEach((value, feature) => {
      const row = featureIndex.get(feature);
      if (row === undefined) return;
      const at = row * width;
      const left = (c: number) => (counts[at + c] as number) - (c === label ? value : 0);
      let any = false;
      for (let c = 0; c < width && !any; c += 1) any = left(c) > 1e-9;
      if (!any) return;
      seen += value;
      for (let c = 0; c < width; c += 1) {
        const denominator = c === label ? ownDenominator : (denominators[c] ?? 0);
        logits[c] = (logits[c] ?? 0) + value * (Math.log(left(c) + alpha) - denominator);
      }
    });
    const norm = seen > 0 ? seen : 1;
    return logits.map((value) => value / norm);
  };

  // Exact leave-one-out predictions of the held-out samples, then a 1-D search for the temperature.
  // With a temperature given there is nothing to fit: skip the leave-one-out pass.
  const held = options.temperature === undefined ? samples.filter((sample) => sample.heldOut) : [];
  const loo = held.map((sample) => {
    const label = index.get(sample.label) ?? 0;
    return {
      label,
      logits: leaveOneOutLogits(sample.features, label),
    };
  });
  const looAccuracy =
    loo.length === 0
      ? 0
      : loo.filter(({ label, logits }) => logits.indexOf(Math.max(...logits)) === label).length /
        loo.length;
  // The search below evaluates this some 40 times over every held-out sample: softmax in one
  // scratch array (the same bits as `softmax`, see softmaxInPlace), not four arrays per sample.
  const scratch = new Float64Array(width);
  const logLoss = (temperature: number) => {
    let sum = 0;
    for (const { label, logits } of loo) {
      scratch.set(logits);
      sum -= Math.log(Math.max(softmaxInPlace(scratch, temperature)[label] ?? 0, 1e-12));
    }
    return sum / Math.max(loo.length, 1);
  };
  let temperature = options.temperature ?? DEFAULT_TEMPERATURE;
  let best = Number.POSITIVE_INFINITY;
  const calibrated =
    options.temperature === undefined &&
    labels.length > 1 &&
    loo.length >= MIN_CALIBRATION_SAMPLES * labels.length;
  if (calibrated) {
    // Golden-section search of the log loss over log temperature, between 0.01 (very sharp) and
    // 10 (nearly uniform): the loss has one minimum there, and 40 steps pin it to 0.1 %.
    const ratio = (Math.sqrt(5) - 1) / 2;
    let lo = Math.log(1e-2);
    let hi = Math.log(10);
    let a = hi - ratio * (hi - lo);
    let b = lo + ratio * (hi - lo);
    let lossA = logLoss(Math.exp(a));
    let lossB = logLoss(Math.exp(b));
    for (let step = 0; step < 40; step += 1) {
      if (lossA <= lossB) {
        hi = b;
        b = a;
        lossB = lossA;
        a = hi - ratio * (hi - lo);
        lossA = logLoss(Math.exp(a));
      } else {
        lo = a;
        a = b;
        lossA = lossB;
        b = lo + ratio * (hi - lo);
        lossB = logLoss(Math.exp(b));
      }
    }
    temperature = Math.exp((lo + hi) / 2);
    best = logLoss(temperature);
  }

  return classifierOver(labels, features, logs, temperature, {
    labels,
    samples: samples.length,
    features: vocabulary,
    temperature,
    looAccuracy,
    calibrated,
    looLogLoss: Number.isFinite(best) ? best : logLoss(temperature),
    looSamples: loo.length,
  });
}

/**
 * The classifier a {@link ClassifierModel} describes: the same classifications, to the bit, as
 * the trained one it was taken from.
 *
 * @example
 * const copy = restoreIntentClassifier(classifier.model);
 */
export function restoreIntentClassifier(model: ClassifierModel): IntentClassifier {
  const { labels, logProbabilities } = model;
  const width = labels.length;
  const features = [...logProbabilities.keys()];
  const flat = new Float64Array(features.length * width);
  features.forEach((feature, i) => {
    const logs = logProbabilities.get(feature);
    for (let c = 0; c < width; c += 1) flat[i * width + c] = logs?.[c] ?? 0;
  });
  return classifierOver(labels, features, flat, model.temperature, model.stats, model);
}

/**
 * The classifier over `flat`, the log probabilities of `features[i]` at `i × labels.length`.
 * `model` is what {@link IntentClassifier.model} gives; without one it is made when first read
 * (rows viewing `flat`): the folds of a calibration are never saved, so they never build it.
 */
function classifierOver(
  labels: string[],
  features: readonly string[],
  flat: Float64Array,
  temperature: number,
  stats: ClassifierStats,
  model?: ClassifierModel,
): IntentClassifier {
  const width = labels.length;

  // Every row in one flat array, found by its offset: a lookup yields a small integer and the
  // row's numbers lie side by side, instead of a typed array object (and its separate storage)
  // per feature to chase on every route. The numbers are the same, summed in the same order.
  const offsets = new Map<string, number>();
  // The same offsets by feature id: a query's features are found by an array read.
  const byId: number[] = [];
  features.forEach((feature, i) => {
    offsets.set(feature, i * width);
    byId[trainedFeatureId(feature)] = i * width;
  });

  const offsetById = new Int32Array(byId.length).fill(-1);
  byId.forEach((offset, id) => (offsetById[id] = offset));

  // The row at `at`, times `value`, added to `into`: every feature's contribution to the logits.
  const addRow = (into: Float64Array, at: number, value: number) => {
    for (let c = 0; c < width; c += 1)
      into[c] = (into[c] as number) + value * (flat[at + c] as number);
  };

  // Naive Bayes is linear in feature counts, so a bundle's contribution can be summed once. The
  // sums of the bundles kept lie in one array, a row each (seen, total, then the logits), so that
  // reading one touches one place in memory, not an object, its array and that array's numbers.
  const sumLength = width + 2;
  let sumRows = new Float64Array(256 * sumLength);
  let sumRowsUsed = 0;
  // Where each kept bundle's row starts, by its key.
  const bundleRows = new Map<string, number>();
  const BUNDLE_CACHE_LIMIT = 20_000;
  // The row of a bundle past the limit, summed again each time it is read.
  const unkept = new Float64Array(sumLength);
  // This classifier, as a bundle's `summedBy` names it.
  const self = {};
  // Sums a bundle into `row` from `at` on (zeros there): seen, total, then the logits in place,
  // as into a fresh array.
  const sumBundle = (bundle: FeatureBundle, row: Float64Array, at: number) => {
    let seen = 0;
    let total = 0;
    const logits = row.subarray(at + 2, at + sumLength);
    for (const [feature, value] of bundle.features()) {
      total += value;
      const from = offsets.get(feature);
      if (from === undefined) continue;
      seen += value;
      addRow(logits, from, value);
    }
    row[at] = seen;
    row[at + 1] = total;
  };
  // Where the bundle's row starts in `sumRows`, or -1 when it is in `unkept`.
  const bundleRow = (bundle: FeatureBundle): number => {
    if (bundle.summedBy === self) return bundle.summedAt;
    let at = bundleRows.get(bundle.key);
    if (at === undefined) {
      if (bundleRows.size >= BUNDLE_CACHE_LIMIT) {
        unkept.fill(0);
        sumBundle(bundle, unkept, 0);
        return -1;
      }
      sumRows = rowsWithRoom(sumRows, sumRowsUsed, sumLength);
      at = sumRowsUsed;
      sumRowsUsed += sumLength;
      sumBundle(bundle, sumRows, at);
      bundleRows.set(bundle.key, at);
    }
    bundle.summedBy = self;
    bundle.summedAt = at;
    return at;
  };

  // The sums of a classification, reused (classify is synchronous and keeps none of them: the
  // probabilities are copied out), rather than a typed array made on every clause of every route.
  const sums = new Float64Array(width);
  return {
    classify(features, bundles = []) {
      // Hot path of every route: sums in one typed array, no intermediate arrays per step.
      // A loop, not `fill` (a call into the engine for a handful of labels).
      for (let c = 0; c < width; c += 1) sums[c] = 0;
      let seen = 0;
      let total = 0;
      if (features instanceof Map) {
        // forEach, not for...of: no [key, value] pair is allocated per feature.
        features.forEach((value, feature) => {
          total += value;
          const at = offsets.get(feature);
          if (at === undefined) return;
          seen += value;
          addRow(sums, at, value);
        });
      } else {
        // The same sums in the same order, each feature found by its id.
        const { count, ids, values } = features as FeatureList;
        for (let i = 0; i < count; i += 1) {
          const value = values[i] as number;
          total += value;
          const id = ids[i] as number;
          const at = id >= 0 && id < offsetById.length ? (offsetById[id] as number) : -1;
          if (at < 0) continue;
          seen += value;
          addRow(sums, at, value);
        }
      }
      for (const bundle of bundles) {
        const kept = bundleRow(bundle);
        const row = kept >= 0 ? sumRows : unkept;
        const at = kept >= 0 ? kept : 0;
        seen += row[at]!;
        total += row[at + 1]!;
        for (let c = 0; c < labels.length; c += 1)
          sums[c] = (sums[c] ?? 0) + (row[at + 2 + c] ?? 0);
      }
      const coverage = total > 0 ? seen / total : 0;
      const norm = seen > 0 ? seen : 1;
      for (let c = 0; c < labels.length; c += 1) sums[c] = (sums[c] as number) / norm;
      const probabilities =
        coverage > 0 ? softmaxInPlace(sums, temperature) : sums.fill(1 / labels.length);
      // Best first, ties in label order (as the stable `sort` by probability put them): each
      // label's entry moved up past those it outranks, as it is made.
      const ranked: Array<{ label: string; probability: number }> = [];
      for (let c = 0; c < labels.length; c += 1) {
        const entry = { label: labels[c]!, probability: probabilities[c] ?? 0 };
        let at = ranked.length;
        ranked.push(entry);
        while (at > 0 && entry.probability > ranked[at - 1]!.probability) {
          ranked[at] = ranked[at - 1]!;
          at -= 1;
        }
        ranked[at] = entry;
      }
      // In the labels' order (see Classification.probabilities), the same numbers.
      const byLabel: Record<string, number> = {};
      for (let c = 0; c < labels.length; c += 1) byLabel[labels[c]!] = probabilities[c] ?? 0;
      return { probabilities: byLabel, ranked, coverage };
    },
    // Every feature counted in training has a log probability, and only those.
    knows: (feature) => offsets.has(feature),
    stats,
    get model() {
      return (model ??= {
        labels,
        logProbabilities: new Map(
          features.map((feature, i) => [feature, flat.subarray(i * width, (i + 1) * width)]),
        ),
        temperature,
        stats,
      });
    },
  };
}
