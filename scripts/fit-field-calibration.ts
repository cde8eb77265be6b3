/**
 * Fits the router's field calibration stage (FIELD_CALIBRATION in
 * src/routing/confidence-calibration.ts) on questions written blind, never on a held-out half:
 * routes the tuning half of eval/routing-blind.jsonl and eval/routing-tune-extra.jsonl over the
 * textbook and the sample book with only the cross-validated stage, and
 *
 * 1. picks the ridge penalty by 5-fold cross-validation over the questions (a question's decisions
 *    on both books are in the same fold): the expected calibration error of each fold's decisions
 *    under a map fitted on the other folds;
 * 2. fits the map on all the questions with that penalty;
 * 3. lowers its bias until the mean confidence on those questions equals the router's accuracy on
 *    questions it meets for the first time (FIRST_CONTACT_ACCURACY): the router was developed on
 *    these questions, so it is right on more of them than it will be on new ones.
 *
 * It prints the map and the errors. The dev set (../shared/eval/routing-dev.jsonl) is left out: it
 * is what the router was first built against, easier than what users ask.
 *
 * Usage: npx tsx scripts/fit-field-calibration.ts
 */
import { existsSync } from 'node:fs';
import { ingest } from '../src/retrieval/index.js';
import {
  createBookRegistry,
  createRouter,
  loadBookKnowledge,
  loadRoutingCases,
} from '../src/routing/index.js';
import {
  calibrateConfidence,
  fitConfidenceCalibration,
  type CalibrationPoint,
  type ConfidenceCalibration,
} from '../src/routing/confidence-calibration.js';
import { expectedCalibrationError } from '../src/routing/evaluate-routing.js';
import { createStore, openPgliteDb } from '../src/store/index.js';

const books = {
  textbook: '../shared/corpus/physical-ai-book',
  'sample book': 'examples/physical-ai-book',
};
/**
 * The router's accuracy on questions it had never met: eval/routing-tune-extra.jsonl, routed
 * right after it was written (commit f66af9c, before any change made for it), was 75/80 right on
 * the textbook and 74/80 on the sample book. Measure it again on the next new set written blind.
 */
const FIRST_CONTACT_ACCURACY = 149 / 160;
const RIDGES = [2, 5, 20, 50];
const FOLDS = 5;

if (!existsSync(books.textbook)) {
  console.error(`Need ${books.textbook} (the shared folder sits beside the repo).`);
  process.exit(1);
}
const cases = [
  ...loadRoutingCases('eval/routing-blind.jsonl').filter((c) => c.split === 'tune'),
  ...loadRoutingCases('eval/routing-tune-extra.jsonl'),
];
if (cases.some((c) => c.split !== 'tune')) throw new Error('Only tune questions may be fitted on.');

type Point = CalibrationPoint & { question: number };
const points: Point[] = [];
for (const [name, dir] of Object.entries(books)) {
  const store = await createStore(await openPgliteDb('memory://'));
  await ingest(dir, { store });
  const router = createRouter(createBookRegistry(), { fieldCalibration: false });
  router.learn(await loadBookKnowledge(store));
  await store.close();
  cases.forEach((c, question) => {
    const result = router.route(c.query);
    points.push({
      confidence: result.confidence,
      phase: result.phase,
      correct: result.primaryAgent === c.agent,
      question,
    });
  });
  console.error(`${name}: ${cases.length} decisions`);
}

const ece = (confidences: number[]) =>
  expectedCalibrationError(
    confidences.map((confidence, i) => ({ confidence, correct: points[i]!.correct })),
  );
const apply = (calibration: ConfidenceCalibration | undefined) =>
  points.map((p) => calibrateConfidence(calibration, p.confidence, p.phase));

// 1. The penalty whose out-of-fold confidences are best calibrated.
const outOfFold = (ridge: number): number[] => {
  const confidences = new Array<number>(points.length);
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const calibration = fitConfidenceCalibration(
      points.filter((p) => p.question % FOLDS !== fold),
      { ridge },
    );
    points.forEach((p, i) => {
      if (p.question % FOLDS === fold)
        confidences[i] = calibrateConfidence(calibration, p.confidence, p.phase);
    });
  }
  return confidences;
};
const byRidge = RIDGES.map((ridge) => ({ ridge, ece: ece(outOfFold(ridge)) }));
const best = byRidge.reduce((a, b) => (b.ece < a.ece ? b : a));
console.error(
  `out-of-fold ECE by ridge: ${byRidge.map((r) => `${r.ridge}: ${r.ece.toFixed(3)}`).join(', ')}`,
);

// 2. The map on every question, 3. its bias lowered to the first-contact accuracy.
const fitted = fitConfidenceCalibration(points, { ridge: best.ridge });
if (!fitted) throw new Error('Too few decisions, or all right, to fit a calibration.');
const mean = (calibration: ConfidenceCalibration) =>
  apply(calibration).reduce((a, b) => a + b, 0) / points.length;
let low = -5;
let high = 0;
for (let i = 0; i < 60; i += 1) {
  const mid = (low + high) / 2;
  if (mean({ ...fitted, bias: fitted.bias + mid }) > FIRST_CONTACT_ACCURACY) high = mid;
  else low = mid;
}
const round = (n: number) => Math.round(n * 1000) / 1000;
const field: ConfidenceCalibration = {
  weights: [round(fitted.weights[0]), round(fitted.weights[1]), round(fitted.weights[2])],
  bias: round(fitted.bias + low),
  points: fitted.points,
  correct: fitted.correct,
};
console.log(JSON.stringify(field));
const right = points.filter((p) => p.correct).length;
console.log(
  `${points.length} decisions, ${right} right (${((100 * right) / points.length).toFixed(1)} %); ` +
    `ridge ${best.ridge}; ECE raw ${ece(apply(undefined)).toFixed(3)}, fitted ${ece(apply(fitted)).toFixed(3)}, ` +
    `out-of-fold ${best.ece.toFixed(3)}; mean confidence ${mean(field).toFixed(3)} ` +
    `(first-contact accuracy ${FIRST_CONTACT_ACCURACY.toFixed(3)})`,
);
