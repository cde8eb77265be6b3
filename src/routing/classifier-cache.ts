import { endianness } from 'node:os';
import type { ClassifierModel, ClassifierStats } from './intent-classifier.js';

/**
 * A trained intent classifier as saved with the trained router (JSON): its log probabilities as
 * one base64 block of float64 values, feature by feature, so that the restored classifier computes
 * with exactly the numbers the trained one had.
 */
export interface SavedClassifier {
  labels: string[];
  temperature: number;
  stats: ClassifierStats;
  features: string[];
  /** `features.length × labels.length` little-endian float64 values, base64. */
  logProbabilities: string;
}

// The float64 block is written in the machine's byte order: only little-endian machines (every
// machine Node ships for but s390x) save or load one; others train as before.
const littleEndian = endianness() === 'LE';

/**
 * The JSON form of a trained classifier's model; undefined where it cannot be saved.
 *
 * @example
 * const saved = saveClassifier(router.classifier);
 */
export function saveClassifier(model: ClassifierModel): SavedClassifier | undefined {
  if (!littleEndian) return undefined;
  const features = [...model.logProbabilities.keys()];
  const width = model.labels.length;
  const values = new Float64Array(features.length * width);
  features.forEach((feature, i) =>
    values.set(model.logProbabilities.get(feature) ?? [], i * width),
  );
  return {
    labels: model.labels,
    temperature: model.temperature,
    stats: model.stats,
    features,
    logProbabilities: Buffer.from(values.buffer).toString('base64'),
  };
}

const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

function isStats(value: unknown, labels: readonly string[]): value is ClassifierStats {
  const stats = value as Partial<Record<keyof ClassifierStats, unknown>> | null;
  return (
    typeof stats === 'object' &&
    stats !== null &&
    Array.isArray(stats.labels) &&
    stats.labels.length === labels.length &&
    stats.labels.every((label, i) => label === labels[i]) &&
    typeof stats.calibrated === 'boolean' &&
    [
      stats.samples,
      stats.features,
      stats.temperature,
      stats.looAccuracy,
      stats.looLogLoss,
      stats.looSamples,
    ].every(finite)
  );
}

/**
 * Reads what {@link saveClassifier} wrote (checked by hand: it comes from a file or a database);
 * undefined when it is not a classifier's model.
 */
export function loadClassifier(value: unknown): ClassifierModel | undefined {
  if (!littleEndian) return undefined;
  const saved = value as Partial<Record<keyof SavedClassifier, unknown>> | null;
  if (typeof saved !== 'object' || saved === null) return undefined;
  const { labels, temperature, stats, features, logProbabilities } = saved;
  if (
    !Array.isArray(labels) ||
    labels.length === 0 ||
    !labels.every((label) => typeof label === 'string') ||
    new Set(labels).size !== labels.length ||
    !finite(temperature) ||
    temperature <= 0 ||
    !isStats(stats, labels) ||
    !Array.isArray(features) ||
    !features.every((feature) => typeof feature === 'string') ||
    typeof logProbabilities !== 'string'
  )
    return undefined;
  const bytes = Buffer.from(logProbabilities, 'base64');
  const width = labels.length;
  if (bytes.length !== features.length * width * 8) return undefined;
  // Copied into an array buffer of its own: a base64 Buffer may sit at any offset of a shared pool.
  const values = new Float64Array(new Uint8Array(bytes).buffer);
  if (!values.every(Number.isFinite)) return undefined;
  const rows = new Map<string, Float64Array>();
  features.forEach((feature, i) => rows.set(feature, values.subarray(i * width, (i + 1) * width)));
  if (rows.size !== features.length) return undefined;
  return { labels, temperature, stats, logProbabilities: rows };
}
