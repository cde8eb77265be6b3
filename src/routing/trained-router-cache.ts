import { createHash } from 'node:crypto';
import type { Agent } from '../agents/index.js';
import type { BookKnowledge } from '../schema/index.js';
import { sourceFingerprint } from '../store/index.js';
import { loadClassifier, saveClassifier } from './classifier-cache.js';
import type { ConfidenceCalibration } from './confidence-calibration.js';
import type { ClassifierModel } from './intent-classifier.js';
import type { RouterOptions } from './router.js';

/** Name of the saved trained router (book knowledge and calibration) in the store's build cache. */
export const TRAINED_ROUTER_CACHE = 'trained-router';

/**
 * What a router learnt from a book: its knowledge and the calibration it fitted with it, and the
 * intent classifier it trained on its agents (absent in routers saved before it was kept).
 */
export interface TrainedRouter {
  knowledge: BookKnowledge;
  /** `null` when the router fitted none (too few examples, or calibration off). */
  calibration: ConfidenceCalibration | null;
  classifier?: ClassifierModel;
}

/**
 * A hash of what a trained router depends on besides the book: its agents (keywords, examples,
 * intents…), its options and the routing code. Saved routers are keyed by it and the chunks'
 * content hash, so a change to any of them trains the router again.
 *
 * @example
 * const fingerprint = trainedRouterFingerprint(registry.all(), config.routing);
 */
export function trainedRouterFingerprint(
  agents: readonly Agent[],
  options: Omit<RouterOptions, 'knowledge'> & { knowledge?: unknown },
): string {
  const { knowledge: _knowledge, ...settings } = options;
  return createHash('sha1')
    .update(JSON.stringify(agents))
    .update('\0')
    .update(JSON.stringify(settings))
    .update('\0')
    .update(sourceFingerprint(new URL('.', import.meta.url)))
    .digest('hex');
}

/** The bytes saved for a trained router (JSON; the knowledge's store version is left out). */
export function encodeTrainedRouter(trained: TrainedRouter): Uint8Array {
  const { version: _version, ...knowledge } = trained.knowledge;
  const classifier = trained.classifier && saveClassifier(trained.classifier);
  return new TextEncoder().encode(
    JSON.stringify({
      knowledge,
      calibration: trained.calibration,
      ...(classifier ? { classifier } : {}),
    }),
  );
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * True when `value` has the shape of {@link BookKnowledge}. Checked by hand: the zod schema takes
 * longer on a book's tens of thousands of terms than the rest of a cold start's routing.
 */
function isKnowledge(value: unknown): value is BookKnowledge {
  const knowledge = value as Partial<Record<keyof BookKnowledge, unknown>> | null;
  if (typeof knowledge !== 'object' || knowledge === null) return false;
  const { domains, chunks, terms, words } = knowledge;
  if (!Array.isArray(domains) || !domains.every((d) => typeof d === 'string' && d.length > 0))
    return false;
  if (!Array.isArray(chunks) || chunks.length !== domains.length || !chunks.every(isCount))
    return false;
  if (typeof terms !== 'object' || terms === null || typeof words !== 'object' || words === null)
    return false;
  for (const row of Object.values(terms)) {
    if (!Array.isArray(row) || row.length !== domains.length || !row.every(isCount)) return false;
  }
  const { passages } = knowledge;
  if (passages !== undefined) {
    if (typeof passages !== 'object' || passages === null) return false;
    for (const list of Object.values(passages))
      if (!Array.isArray(list) || !list.every(isCount)) return false;
  }
  if (knowledge.licencePage !== undefined && typeof knowledge.licencePage !== 'boolean')
    return false;
  if (knowledge.acknowledgments !== undefined && typeof knowledge.acknowledgments !== 'boolean')
    return false;
  return Object.values(words).every(isCount);
}

function isCalibration(value: unknown): value is ConfidenceCalibration | null {
  if (value === null) return true;
  const calibration = value as Partial<Record<keyof ConfidenceCalibration, unknown>> | null;
  const finite = (n: unknown) => typeof n === 'number' && Number.isFinite(n);
  return (
    typeof calibration === 'object' &&
    calibration !== null &&
    Array.isArray(calibration.weights) &&
    calibration.weights.length === 3 &&
    calibration.weights.every(finite) &&
    finite(calibration.bias) &&
    finite(calibration.points) &&
    finite(calibration.correct)
  );
}

/** Reads bytes written by {@link encodeTrainedRouter}; undefined when they are not one. */
export function decodeTrainedRouter(bytes: Uint8Array): TrainedRouter | undefined {
  try {
    const saved = JSON.parse(new TextDecoder().decode(bytes)) as
      (Omit<Partial<TrainedRouter>, 'classifier'> & { classifier?: unknown }) | null;
    if (!saved || !isKnowledge(saved.knowledge) || !isCalibration(saved.calibration))
      return undefined;
    // A classifier that does not read back is trained again; the rest is still used.
    const classifier =
      saved.classifier === undefined ? undefined : loadClassifier(saved.classifier);
    return {
      knowledge: saved.knowledge,
      calibration: saved.calibration,
      ...(classifier ? { classifier } : {}),
    };
  } catch {
    return undefined;
  }
}
