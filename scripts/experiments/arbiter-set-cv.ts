/**
 * Leave-one-set-out cross-validation of the routing arbiter's settings (issue 11).
 *
 * `scripts/fit-routing-arbiter.ts` chooses its settings by 5-fold cross-validation over questions:
 * a fold's questions were written by the same hand as the rest, so wording the model memorised
 * (stems, stem pairs, character n-grams) is rewarded. A new user's questions come from a new hand.
 * Here each tuning set is one fold (the dev set another), so a setting is judged on a writer it
 * never saw. The feature groups can also be left out: `lexical` full (stems, pairs, first stems),
 * `stems` (stems and first stem only) or `none` (the rules' decision and evidence only).
 *
 * Held-out halves and held-out sets are never fitted on nor used to choose; the chosen setting's
 * held-out figures are printed last, for the record.
 *
 * Usage: npx tsx scripts/experiments/arbiter-set-cv.ts [--cache /tmp/arbiter-decisions.json]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { openAssistant } from '../../src/assistant/index.js';
import { loadConfig } from '../../src/config/index.js';
import { arbiterFeatures, type ArbiterFeature } from '../../src/routing/arbiter.js';
import { fitArbiter } from '../../src/routing/fit-arbiter.js';
import { arbiterProbabilities, type RoutingArbiterModel } from '../../src/routing/arbiter.js';
import { loadRoutingCases } from '../../src/routing/index.js';

const BOOKS = ['../shared/corpus/physical-ai-book', 'examples/physical-ai-book'];
const DEV = '../shared/eval/routing-dev.jsonl';
const cacheAt = process.argv.indexOf('--cache');
const CACHE = cacheAt > 0 ? process.argv[cacheAt + 1]! : '/tmp/arbiter-decisions.json';

interface Decision {
  set: string;
  tune: boolean;
  book: number;
  ruled: string;
  agent: string;
  /** Every feature, with character n-grams and evidence. */
  features: ArbiterFeature[];
  explicit: boolean;
  secondary: string[];
}
interface Cached {
  agents: string[];
  defaultAgent: string;
  decisions: Decision[];
}

async function decideAll(): Promise<Cached> {
  const sets = readdirSync('eval')
    .filter((f) => f.startsWith('routing-') && f.endsWith('.jsonl'))
    .map((f) => `eval/${f}`);
  const all = [
    ...loadRoutingCases(DEV).map((c) => ({ ...c, split: 'tune', set: DEV })),
    ...sets.flatMap((set) => loadRoutingCases(set).map((c) => ({ ...c, set }))),
  ];
  const decisions: Decision[] = [];
  let agents: string[] = [];
  let defaultAgent = '';
  for (const [book, path] of BOOKS.entries()) {
    const config = loadConfig({
      env: {
        COHORT_DATA_DIR: 'memory://',
        COHORT_SAMPLE_BOOK: path,
        COHORT_ROUTING_ARBITER: 'off',
      },
      cwd: process.cwd(),
    });
    const opened = await openAssistant({ config });
    await opened.knowledgeBase.warm?.();
    agents = opened.registry.all().map((agent) => agent.name);
    defaultAgent = opened.registry.defaultAgent.name;
    for (const c of all) {
      const text = opened.retriever.readQueryNow?.(c.query).text ?? c.query;
      const result = opened.router.route(text);
      decisions.push({
        set: c.set,
        tune: c.split === 'tune',
        book,
        ruled: result.primaryAgent,
        agent: c.agent,
        features: arbiterFeatures(text, result, true, opened.router.explain(text)),
        explicit: result.phase === 'explicit',
        secondary: result.secondaryAgents,
      });
    }
    await opened.close();
  }
  return { agents, defaultAgent, decisions };
}

const cached: Cached = existsSync(CACHE)
  ? (JSON.parse(readFileSync(CACHE, 'utf8')) as Cached)
  : await decideAll();
if (!existsSync(CACHE)) writeFileSync(CACHE, JSON.stringify(cached));
const { agents, defaultAgent, decisions } = cached;

type Lexical = 'full' | 'stems' | 'none';
interface Choice {
  ridge: number;
  charGrams: boolean;
  lexical: Lexical;
}
const keep = (choice: Choice) => (name: string) => {
  if (name.startsWith('g=')) return choice.charGrams;
  if (name.startsWith('b=') || name.startsWith('f2=')) return choice.lexical === 'full';
  if (name.startsWith('w=') || name.startsWith('f=')) return choice.lexical !== 'none';
  return true;
};
const featuresOf = (d: Decision, choice: Choice) => d.features.filter(([n]) => keep(choice)(n));
const fit = (train: Decision[], choice: Choice) =>
  fitArbiter(
    train.map((d) => ({ features: featuresOf(d, choice), agent: d.agent })),
    { agents, defaultAgent, ridge: choice.ridge, charGrams: choice.charGrams },
  );
// As arbiterPick: keep the rules' agent on a tie, for an explicit route, or when the pick is a later ask.
function decide(model: RoutingArbiterModel, d: Decision, choice: Choice): string {
  if (d.explicit) return d.ruled;
  const p = arbiterProbabilities(model, featuresOf(d, choice));
  const ruledAt = model.agents.indexOf(d.ruled);
  if (ruledAt < 0) return d.ruled;
  let best = ruledAt;
  for (let k = 0; k < p.length; k += 1) if (p[k]! > p[best]!) best = k;
  const agent = model.agents[best]!;
  return best === ruledAt || d.secondary.includes(agent) ? d.ruled : agent;
}

const tune = decisions.filter((d) => d.tune);
const folds = [...new Set(tune.map((d) => d.set))];
const rules = tune.filter((d) => d.ruled === d.agent).length;
console.log(
  `${tune.length} tuning decisions in ${folds.length} sets; rules alone ${((100 * rules) / tune.length).toFixed(1)} %`,
);
const choices: Choice[] = [];
for (const ridge of [1, 3, 10])
  for (const charGrams of [false, true])
    for (const lexical of ['full', 'stems', 'none'] as const)
      choices.push({ ridge, charGrams, lexical });
let best: { choice: Choice; accuracy: number } | undefined;
for (const choice of choices) {
  let right = 0;
  const perSet: string[] = [];
  for (const set of folds) {
    const model = fit(
      tune.filter((d) => d.set !== set),
      choice,
    );
    const held = tune.filter((d) => d.set === set);
    const r = held.filter((d) => decide(model, d, choice) === d.agent).length;
    right += r;
    perSet.push(`${r}/${held.length}`);
  }
  const accuracy = right / tune.length;
  console.log(
    `ridge ${choice.ridge} grams ${choice.charGrams} lexical ${choice.lexical}: set-out ${(100 * accuracy).toFixed(1)} % [${perSet.join(' ')}]`,
  );
  if (!best || accuracy > best.accuracy) best = { choice, accuracy };
}
console.log('best', JSON.stringify(best));
// For the record: held-out figures of the best choice and of the runtime's current one.
for (const choice of [best!.choice, { ridge: 1, charGrams: true, lexical: 'full' as const }]) {
  const model = fit(tune, choice);
  for (const book of [0, 1]) {
    const held = decisions.filter((d) => !d.tune && d.book === book);
    const r = held.filter((d) => decide(model, d, choice) === d.agent).length;
    console.log(
      `${JSON.stringify(choice)} book ${book}: held-out ${r}/${held.length} = ${((100 * r) / held.length).toFixed(1)} %`,
    );
  }
}
