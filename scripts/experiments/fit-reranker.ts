/**
 * The learned-reranker experiment (issue 11): fits `rerank-model.ts`'s pairwise logistic regression
 * over `rerank-features.ts` on TUNE questions only and reports 5-fold cross-validated R@1/R@5/R@10
 * per set against the runtime ranking, for several ridge penalties.
 *
 * Tune sets: ../shared/eval/retrieval-dev.jsonl, eval/retrieval-paraphrase.jsonl, -hard, -quarter,
 * eval/retrieval-rerank-tune.jsonl and the `tune` half of eval/answers-blind.jsonl. Held-out sets
 * (eval/*fresh*, the `heldout` halves, eval/*third*) are never read here.
 *
 * Usage: npx tsx scripts/experiments/fit-reranker.ts [--features=a,b] [--ridge=1,10] [--depth=50]
 *        [--gate=0.75] [--seed=11] [--first-contact=<set>] [--write=model.json]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { prepareDocument } from '../../src/retrieval/index.js';
import { isGoldHit, parseRetrievalCases } from '../../src/eval/index.js';
import { toRetrievedChunk } from '../../src/retrieval/retrievers/create-retriever.js';
import { relevance } from '../../src/retrieval/rank/ranker.js';
import { createLearnedRanker } from './learned-reranker.js';
import { RERANK_FEATURES, type RerankFeature } from './rerank-features.js';
import {
  fitRerankModel,
  rerankScorer,
  type RerankExample,
  type RerankModel,
} from './rerank-model.js';

const corpusDir = '../shared/corpus/physical-ai-book';
const SETS: Record<string, string> = {
  dev: '../shared/eval/retrieval-dev.jsonl',
  paraphrase: 'eval/retrieval-paraphrase.jsonl',
  hard: 'eval/retrieval-paraphrase-hard.jsonl',
  quarter: 'eval/retrieval-paraphrase-quarter.jsonl',
  answersTune: 'eval/answers-blind.jsonl',
  rerankTune: 'eval/retrieval-rerank-tune.jsonl',
};
if (!existsSync(corpusDir) || !existsSync(SETS.dev as string)) {
  console.error(`Need ${corpusDir} and ${SETS.dev} (the shared folder sits beside the repo).`);
  process.exit(1);
}
const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const depth = Number(arg('depth') ?? 50);
const ridges = (arg('ridge') ?? '1,10,100').split(',').map(Number);
const features = (arg('features')?.split(',') ?? [...RERANK_FEATURES]) as RerankFeature[];
const firstContact = arg('first-contact');

const chunks = globSync('**/*.{md,mdx}', { cwd: corpusDir })
  .sort()
  .flatMap((file) => prepareDocument(file, readFileSync(join(corpusDir, file), 'utf8')).chunks);
const ranker = createLearnedRanker(chunks);

interface Question extends RerankExample {
  set: string;
  /** The first stage's best 0..1 relevance: above `--gate` the first-stage order is kept. */
  top: number;
}
const gate = Number(arg('gate') ?? Number.POSITIVE_INFINITY);
const questions: Question[] = [];
for (const [set, file] of Object.entries(SETS)) {
  // Only tune lines: a line with a split must say "tune".
  const cases = parseRetrievalCases(readFileSync(file, 'utf8'), file).filter(
    (c) => c.split === undefined || c.split === 'tune',
  );
  for (const c of cases) {
    const stage = ranker.firstStage(c.query, { limit: depth });
    const gold = stage.candidates.map(({ doc }) =>
      c.gold.some((g) => isGoldHit(toRetrievedChunk(chunks[doc]!, 0, false), g)),
    );
    const best = stage.candidates[0];
    const top = best ? relevance(best.own, best.total, stage.maxAttainable) : 0;
    questions.push({ set, rows: ranker.features(stage), gold, top });
  }
}

/** Rank (1-based) of the first gold candidate, first-stage order or under `model`. */
function rankOf(question: Question, model: RerankModel | undefined): number | undefined {
  const order = question.rows.map((_, i) => i);
  if (model && question.top < gate) {
    const scores = question.rows.map(rerankScorer(model));
    order.sort((a, b) => scores[b]! - scores[a]! || a - b);
  }
  const at = order.findIndex((i) => question.gold[i]);
  return at >= 0 ? at + 1 : undefined;
}

/** R@1/R@5/R@10 per set and over all. */
function figures(results: { set: string; rank: number | undefined }[]): string {
  const sets = [...new Set(results.map((r) => r.set)), 'all'];
  return sets
    .map((set) => {
      const mine = results.filter((r) => set === 'all' || r.set === set);
      const at = (k: number) =>
        (mine.filter((r) => r.rank !== undefined && r.rank <= k).length / mine.length).toFixed(2);
      return `${set} ${at(1)}/${at(5)}/${at(10)}`;
    })
    .join(' | ');
}

// Folds: each set shuffled with a fixed seed, its questions dealt round the folds in turn.
const FOLDS = 5;
let seed = Number(arg('seed') ?? 11);
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const fold = new Map<Question, number>();
for (const set of Object.keys(SETS)) {
  questions
    .filter((q) => q.set === set)
    .map((q) => ({ q, r: random() }))
    .sort((a, b) => a.r - b.r)
    .forEach(({ q }, i) => fold.set(q, i % FOLDS));
}
const fit = (train: Question[], ridge: number) =>
  fitRerankModel(train, { features, ridge, depth, fittedOn: 'tune sets' });

console.log(`features: ${features.join(', ')}; depth ${depth}`);
console.log('R@1/R@5/R@10 per set');
console.log(
  `first stage     ${figures(questions.map((q) => ({ set: q.set, rank: rankOf(q, undefined) })))}`,
);
for (const ridge of ridges) {
  const results: { set: string; rank: number | undefined }[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const model = fit(
      questions.filter((q) => fold.get(q) !== f),
      ridge,
    );
    for (const q of questions)
      if (fold.get(q) === f) results.push({ set: q.set, rank: rankOf(q, model) });
  }
  console.log(`cv ridge ${String(ridge).padEnd(6)} ${figures(results)}`);
}
if (firstContact) {
  // Fitted without one set: how the reranker does on questions it never saw.
  const model = fit(
    questions.filter((q) => q.set !== firstContact),
    ridges[0]!,
  );
  const mine = questions.filter((q) => q.set === firstContact);
  console.log(
    `first contact on ${firstContact}: before ${figures(mine.map((q) => ({ set: q.set, rank: rankOf(q, undefined) })))}; after ${figures(mine.map((q) => ({ set: q.set, rank: rankOf(q, model) })))}`,
  );
}
const final = fit(questions, ridges[0]!);
console.log(features.map((name, i) => `${name} ${final.weights[i]}`).join(', '));
const out = arg('write');
if (out) writeFileSync(out, `${JSON.stringify(final, null, 2)}\n`);
