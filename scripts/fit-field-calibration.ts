/**
 * Fits the router's field calibration stage (FIELD_CALIBRATION in
 * src/routing/confidence-calibration.ts): routes the tuning half of eval/routing-blind.jsonl and
 * the dev set over the textbook and the sample book with only the cross-validated stage, fits the
 * same logistic map on those decisions, and prints it with the expected calibration error before
 * and after on the decisions it was fitted on. The held-out half is never read.
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
} from '../src/routing/confidence-calibration.js';
import { expectedCalibrationError } from '../src/routing/evaluate-routing.js';
import { createStore, openPgliteDb } from '../src/store/index.js';

const books = {
  textbook: '../shared/corpus/physical-ai-book',
  'sample book': 'examples/physical-ai-book',
};
const devSet = '../shared/eval/routing-dev.jsonl';
if (!existsSync(books.textbook) || !existsSync(devSet)) {
  console.error(`Need ${books.textbook} and ${devSet} (the shared folder sits beside the repo).`);
  process.exit(1);
}
const cases = [
  ...loadRoutingCases('eval/routing-blind.jsonl').filter((c) => c.split === 'tune'),
  ...loadRoutingCases(devSet),
];

const points: CalibrationPoint[] = [];
for (const [name, dir] of Object.entries(books)) {
  const store = await createStore(await openPgliteDb('memory://'));
  await ingest(dir, { store });
  const router = createRouter(createBookRegistry(), { fieldCalibration: false });
  router.learn(await loadBookKnowledge(store));
  await store.close();
  for (const c of cases) {
    const result = router.route(c.query);
    points.push({
      confidence: result.confidence,
      phase: result.phase,
      correct: result.primaryAgent === c.agent,
    });
  }
  console.error(`${name}: ${cases.length} decisions`);
}

const ece = (confidences: number[]) =>
  expectedCalibrationError(
    confidences.map((confidence, i) => ({ confidence, correct: points[i]!.correct })),
  );
const field = fitConfidenceCalibration(points);
const after = points.map((p) => calibrateConfidence(field, p.confidence, p.phase));
console.log(JSON.stringify(field));
console.log(
  `ECE on the ${points.length} fitting decisions: ${ece(points.map((p) => p.confidence)).toFixed(3)} → ${ece(after).toFixed(3)}`,
);
