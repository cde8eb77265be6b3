/**
 * Fits the routing arbiter (src/routing/arbiter.ts) and writes agents/routing-arbiter.json.
 *
 * 1. Opens the book assistant over the textbook and over the sample book (in memory, arbiter
 *    off) and routes every **tuning** question of eval/routing-*.jsonl and the shared dev set as
 *    an answer would (in the book's spelling), with what the rules knew of each (the book's
 *    coverage of its subject, keyword scores, classifier probabilities). A held-out half or a held-out set is never fitted
 *    on, nor used to choose anything.
 * 2. Chooses the L2 penalty and whether character n-grams are features by 5-fold
 *    cross-validation over the questions (a question's decisions on both books in one fold).
 * 3. Fits the model on every tuning decision with that choice and writes it.
 * 4. Prints, for the record only, each held-out set's accuracy with and without the arbiter.
 *
 * Usage: npx tsx scripts/fit-routing-arbiter.ts
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { openAssistant } from '../src/assistant/index.js';
import { loadConfig } from '../src/config/index.js';
import { arbiterFeatures, arbiterPick, type ArbiterEvidence } from '../src/routing/arbiter.js';
import { compileArbiter, type CompiledArbiter } from '../src/routing/compiled-arbiter.js';
import { fitArbiter, type ArbiterExample } from '../src/routing/fit-arbiter.js';
import { packArbiter } from '../src/routing/packed-arbiter.js';
import { loadRoutingCases, type RoutingCase } from '../src/routing/index.js';
import type { RouteResult } from '../src/schema/index.js';

const BOOKS = ['../shared/corpus/physical-ai-book', 'examples/physical-ai-book'];
const DEV = '../shared/eval/routing-dev.jsonl';
const RIDGES = [1, 2, 5];
const FOLDS = 5;
const OUT = 'agents/routing-arbiter.json';

for (const need of [BOOKS[0]!, DEV])
  if (!existsSync(need)) {
    console.error(`Need ${need} (the shared folder sits beside the repo).`);
    process.exit(1);
  }

type Labelled = RoutingCase & { set: string };
const sets = readdirSync('eval')
  .filter((f) => f.startsWith('routing-') && f.endsWith('.jsonl'))
  .map((f) => `eval/${f}`);
const all: Labelled[] = [
  ...loadRoutingCases(DEV).map((c) => ({ ...c, split: 'tune', set: DEV })),
  ...sets.flatMap((set) => loadRoutingCases(set).map((c) => ({ ...c, set }))),
];

interface Decision {
  /** The case's place among the tuning cases (their folds) or among the held-out ones. */
  question: number;
  set: string;
  text: string;
  result: RouteResult;
  /** What the rules knew of the question (the router's explanation carries it all). */
  evidence: ArbiterEvidence;
  agent: string;
}
// Each book's assistant is opened once and decides every case; the tuning and held-out cases are
// numbered apart, so the cross-validation folds are those of the tuning cases alone.
const tuneDecisions: Decision[] = [];
const heldOutByBook: Decision[][] = [];
let agents: string[] = [];
let defaultAgent = '';
for (const book of BOOKS) {
  const config = loadConfig({
    env: { COHORT_DATA_DIR: 'memory://', COHORT_SAMPLE_BOOK: book, COHORT_ROUTING_ARBITER: 'off' },
    cwd: process.cwd(),
  });
  const opened = await openAssistant({ config });
  await opened.knowledgeBase.warm?.();
  agents = opened.registry.all().map((agent) => agent.name);
  defaultAgent = opened.registry.defaultAgent.name;
  const heldOut: Decision[] = [];
  let tuneAt = 0;
  let heldAt = 0;
  for (const c of all) {
    const text = opened.retriever.readQueryNow?.(c.query).text ?? c.query;
    const tuning = c.split === 'tune';
    (tuning ? tuneDecisions : heldOut).push({
      question: tuning ? tuneAt++ : heldAt++,
      set: c.set,
      text,
      result: opened.router.route(text),
      evidence: opened.router.explain(text),
      agent: c.agent,
    });
  }
  heldOutByBook.push(heldOut);
  await opened.close();
}
const [heldTextbook, heldSample] = heldOutByBook;
const examplesOf = (decisions: Decision[], charGrams: boolean): ArbiterExample[] =>
  decisions.map((d) => ({
    features: arbiterFeatures(d.text, d.result, charGrams, d.evidence),
    agent: d.agent,
  }));
const decide = (arbiter: CompiledArbiter, d: Decision): string =>
  arbiterPick(arbiter, d.text, d.result, d.evidence)?.agent ?? d.result.primaryAgent;

// 2. The choice whose out-of-fold decisions are most often right.
const choices = RIDGES.flatMap((ridge) => [false, true].map((charGrams) => ({ ridge, charGrams })));
let best = { ridge: RIDGES[0]!, charGrams: false, accuracy: -1 };
for (const choice of choices) {
  let right = 0;
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const inFold = (d: Decision) => d.question % FOLDS === fold;
    const model = compileArbiter(
      fitArbiter(
        examplesOf(
          tuneDecisions.filter((d) => !inFold(d)),
          choice.charGrams,
        ),
        { agents, defaultAgent, ...choice },
      ),
    );
    for (const d of tuneDecisions.filter(inFold)) if (decide(model, d) === d.agent) right += 1;
  }
  const accuracy = right / tuneDecisions.length;
  const rules = tuneDecisions.filter((d) => d.result.primaryAgent === d.agent).length;
  console.error(
    `ridge ${choice.ridge}, char n-grams ${choice.charGrams}: out-of-fold ${(100 * accuracy).toFixed(1)} % (rules alone ${((100 * rules) / tuneDecisions.length).toFixed(1)} %)`,
  );
  if (accuracy > best.accuracy) best = { ...choice, accuracy };
}

// 3. The model on every tuning decision.
const model = fitArbiter(examplesOf(tuneDecisions, best.charGrams), {
  agents,
  defaultAgent,
  ridge: best.ridge,
  charGrams: best.charGrams,
});
// Saved packed: the feature names in one list, the weights in one flat list (see packed-arbiter.ts).
writeFileSync(OUT, JSON.stringify(packArbiter(model)) + '\n');
console.error(
  `wrote ${OUT}: ridge ${best.ridge}, char n-grams ${best.charGrams}, ${Object.keys(model.weights).length} features, fitted on ${model.fittedOn} decisions`,
);

// 4. Held-out sets, reported only.
const fitted = compileArbiter(model);
for (const [name, decisions] of [
  ['textbook', heldTextbook!],
  ['sample book', heldSample!],
] as const) {
  const bySet = new Map<string, { n: number; rules: number; arbiter: number }>();
  decisions.forEach((d) => {
    const { set } = d;
    const row = bySet.get(set) ?? { n: 0, rules: 0, arbiter: 0 };
    row.n += 1;
    if (d.result.primaryAgent === d.agent) row.rules += 1;
    if (decide(fitted, d) === d.agent) row.arbiter += 1;
    bySet.set(set, row);
  });
  for (const [set, row] of bySet)
    console.error(
      `${name}, held-out ${set}: rules ${row.rules}/${row.n}, with the arbiter ${row.arbiter}/${row.n}`,
    );
}
