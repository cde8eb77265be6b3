/**
 * Does refitting the routing arbiter with more tuning sets help on questions it never saw?
 *
 * Routes every **tuning** question of eval/routing-*.jsonl and the shared dev set over the textbook
 * and the sample book (arbiter off), then, for each set named by `--leave`, fits the arbiter
 * (ridge 1 unless `--ridge`, character n-grams: the fitting's choice) on every other tuning decision and scores the
 * left-out set's tune lines with the rules alone, with the saved arbiter and with the new fit.
 * Held-out lines are dropped before anything is routed. `--write PATH` fits on every tuning
 * decision and writes the packed model there (as scripts/fit-routing-arbiter.ts would, without its
 * cross-validation of the settings).
 *
 * Usage: npx tsx scripts/experiments/arbiter-new-sets.ts --leave eighteenth,train-third [--write PATH]
 *        [--ridge 1] [--skip SET,…]
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { openAssistant } from '../../src/assistant/index.js';
import { loadConfig } from '../../src/config/index.js';
import { arbiterFeatures, arbiterPick, type ArbiterEvidence } from '../../src/routing/arbiter.js';
import { compileArbiter, type CompiledArbiter } from '../../src/routing/compiled-arbiter.js';
import { fitArbiter } from '../../src/routing/fit-arbiter.js';
import { loadRoutingCases } from '../../src/routing/index.js';
import { packArbiter } from '../../src/routing/packed-arbiter.js';
import { readArbiter, ROUTING_ARBITER_FILE } from '../../src/routing/routing-arbiter.js';
import type { RouteResult } from '../../src/schema/index.js';

const BOOKS = ['../shared/corpus/physical-ai-book', 'examples/physical-ai-book'];
const DEV = '../shared/eval/routing-dev.jsonl';
const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const leave = (flag('--leave') ?? '').split(',').filter(Boolean);
const write = flag('--write');
const ridge = Number(flag('--ridge') ?? '1');
// Sets left out of the fitting altogether (`--skip train-third`).
const skip = (flag('--skip') ?? '').split(',').filter(Boolean);

const setName = (file: string) => file.replace(/.*routing-|\.jsonl$/g, '');
const cases = [
  ...loadRoutingCases(DEV).map((c) => ({ ...c, set: 'dev' })),
  ...readdirSync('eval')
    .filter((f) => f.startsWith('routing-') && f.endsWith('.jsonl'))
    .flatMap((f) =>
      loadRoutingCases(`eval/${f}`)
        .filter((c) => c.split === 'tune' && !skip.includes(setName(f)))
        .map((c) => ({ ...c, set: setName(f) })),
    ),
];
interface Decision {
  set: string;
  book: number;
  text: string;
  result: RouteResult;
  evidence: ArbiterEvidence;
  agent: string;
}
const decisions: Decision[] = [];
let agents: string[] = [];
let defaultAgent = '';
for (const [book, dir] of BOOKS.entries()) {
  const config = loadConfig({
    env: { COHORT_DATA_DIR: 'memory://', COHORT_SAMPLE_BOOK: dir, COHORT_ROUTING_ARBITER: 'off' },
    cwd: process.cwd(),
  });
  const opened = await openAssistant({ config });
  await opened.knowledgeBase.warm?.();
  agents = opened.registry.all().map((agent) => agent.name);
  defaultAgent = opened.registry.defaultAgent.name;
  for (const c of cases) {
    const text = opened.retriever.readQueryNow?.(c.query).text ?? c.query;
    decisions.push({
      set: c.set,
      book,
      text,
      result: opened.router.route(text),
      evidence: opened.router.explain(text),
      agent: c.agent,
    });
  }
  await opened.close();
}
const fit = (on: Decision[]) =>
  fitArbiter(
    on.map((d) => ({
      features: arbiterFeatures(d.text, d.result, true, d.evidence),
      agent: d.agent,
    })),
    { agents, defaultAgent, ridge, charGrams: true },
  );
const decide = (arbiter: CompiledArbiter, d: Decision): string =>
  arbiterPick(arbiter, d.text, d.result, d.evidence)?.agent ?? d.result.primaryAgent;
const saved = compileArbiter(readArbiter(ROUTING_ARBITER_FILE));
for (const set of leave) {
  const model = compileArbiter(fit(decisions.filter((d) => d.set !== set)));
  for (const book of [0, 1]) {
    const mine = decisions.filter((d) => d.set === set && d.book === book);
    const right = (pick: (d: Decision) => string) => mine.filter((d) => pick(d) === d.agent).length;
    console.log(
      `${set} ${book === 0 ? 'textbook' : 'sample book'} (${mine.length} tune): rules ${right((d) => d.result.primaryAgent)}, saved arbiter ${right((d) => decide(saved, d))}, refit without it ${right((d) => decide(model, d))}`,
    );
  }
}
if (write) {
  const model = fit(decisions);
  writeFileSync(write, JSON.stringify(packArbiter(model)) + '\n');
  console.log(`wrote ${write}: ${model.fittedOn} decisions`);
}
