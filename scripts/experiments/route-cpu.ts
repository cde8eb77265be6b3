/**
 * CPU per routed question, paired: routers of several builds of cohort (each `dist/` compiled by
 * tsc, as the CLI and the server run it: tsx's transform adds its own cost to every closure),
 * each built over the sample book as the tests build it, route the same questions in interleaved
 * rounds in one process, after a warm-up. Prints the median µs of CPU per question of each build
 * and its ratio to the first, and checks every build gives the same decisions.
 *
 * A build of the code before a change: `git archive HEAD | tar -x -C /tmp/base`, node_modules
 * linked, `npx tsc -p tsconfig.build.json` there; compiled modules must sit below a package.json
 * with `agents/` and `examples/` beside it.
 *
 * Usage: npx tsx scripts/experiments/route-cpu.ts [--rounds 100] [--all] [--thrash] [--profile] dist…
 * (`--all`: every eval/routing-tune-*.jsonl question instead of the bench's 80 of
 * routing-tune-extra.jsonl; `--thrash`: caches evicted before each question, see `thrashed`;
 * `--profile`: the first build alone for `--rounds` seconds, to run under
 * `node --cpu-prof --import tsx`.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface BuildRouter {
  route(query: string): unknown;
  learn(knowledge: unknown): void;
}
/** The parts of a build's modules this script uses. */
interface Build {
  createStore(db: unknown): Promise<{ close(): Promise<void> }>;
  openPgliteDb(url: string): Promise<unknown>;
  ingest(dir: string, options: { store: unknown }): Promise<unknown>;
  loadBookKnowledge(store: unknown): Promise<unknown>;
  createBookRegistry(): unknown;
  createRouter(registry: unknown): BuildRouter;
}

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 100;
const warmSeconds = 15;
const builds = args
  .filter((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--rounds')
  .map((dist) => resolve(dist));
if (builds.length === 0) throw new Error('Name at least one compiled dist/ folder.');

const root = resolve(import.meta.dirname, '../..');
const files = flag('--all')
  ? readdirSync(`${root}/eval`)
      .filter((file) => file.startsWith('routing-tune-'))
      .map((file) => `${root}/eval/${file}`)
  : [`${root}/eval/routing-tune-extra.jsonl`];
const questions = files.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => (JSON.parse(line) as { query: string }).query),
);

async function sampleBookRouter(dist: string): Promise<BuildRouter> {
  const modules = await Promise.all(
    ['index.js', 'routing/index.js', 'retrieval/index.js', 'store/index.js'].map(
      (file) => import(`${dist}/${file}`) as Promise<Partial<Build>>,
    ),
  );
  const build = Object.assign({}, ...modules) as Build;
  const store = await build.createStore(await build.openPgliteDb('memory://'));
  await build.ingest(resolve(root, 'examples/physical-ai-book'), { store });
  const router = build.createRouter(build.createBookRegistry());
  router.learn(await build.loadBookKnowledge(store));
  await store.close();
  return router;
}

const routers: BuildRouter[] = [];
for (const dist of flag('--profile') ? builds.slice(0, 1) : builds)
  routers.push(await sampleBookRouter(dist));

const decisions = routers.map((router) =>
  questions.map((query) => JSON.stringify(router.route(query))),
);
decisions.forEach((list, b) => {
  const differ = list.filter((decision, i) => decision !== decisions[0]![i]).length;
  if (differ > 0) console.log(`${builds[b]}: ${differ} decisions differ from ${builds[0]}`);
});

// The process's CPU time rather than the clock: on a shared machine, time spent waiting for a
// core is not the router's (the bench's server figures are CPU time too).
const inLoop = (router: BuildRouter): number => {
  const start = process.cpuUsage();
  for (const query of questions) router.route(query);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / questions.length;
};
// With `--thrash`, 8 MB are walked before each question, as a server's HTTP work between routes
// evicts routing's tables from the processor's caches; only the routes are timed (by the clock:
// run it on an idle machine).
const walked = new Float64Array(1 << 20);
const thrashed = (router: BuildRouter): number => {
  let nanos = 0n;
  for (const query of questions) {
    for (let i = 0; i < walked.length; i += 8) walked[i]! += 1;
    const start = process.hrtime.bigint();
    router.route(query);
    nanos += process.hrtime.bigint() - start;
  }
  return Number(nanos) / 1e3 / questions.length;
};
const perQuestion = flag('--thrash') ? thrashed : inLoop;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

if (flag('--profile')) {
  const end = Date.now() + rounds * 1000;
  let routed = 0;
  while (Date.now() < end) routed += (perQuestion(routers[0]!), questions.length);
  console.log(`routed ${routed} questions`);
} else {
  // Until the optimising compiler has had every hot function (hundreds of rounds: routing's code
  // is large), the figures mostly measure the compiler.
  const warmUntil = Date.now() + warmSeconds * 1000;
  while (Date.now() < warmUntil) for (const router of routers) perQuestion(router);
  const times: number[][] = routers.map(() => []);
  for (let i = 0; i < rounds; i += 1) {
    // Alternate the order so that no build always runs right after another.
    const order = routers.map((_, b) => b);
    if (i % 2 === 1) order.reverse();
    for (const b of order) times[b]!.push(perQuestion(routers[b]!));
  }
  const first = median(times[0]!);
  routers.forEach((_, b) =>
    console.log(
      `${builds[b]}: ${median(times[b]!).toFixed(1)} µs ${flag('--thrash') ? 'a route after 8 MB walked' : 'of CPU a question'} (median of ${rounds} rounds of ${questions.length}), ${(median(times[b]!) / first).toFixed(2)} × the first`,
    ),
  );
}
