/**
 * Where the book assistant loses the gold section, stage by stage, on TUNE questions only.
 *
 * For each question the whole assistant answers (route → agent → domain filter → retrieve →
 * sentence choice → citations, extractive mode, as `cohort eval answers`), and the retriever is
 * asked separately for the whole book's top 10. A question whose answer cites no gold section is
 * put in the first stage that lost it:
 *
 * - `not in book`: the answer cites nothing although a gold section is in the whole book's top 5;
 * - `retrieval`: no gold section in the whole book's top 10;
 * - `ranking 6-10`: a gold section is in the whole book's top 10 but not its top 5, nor among the
 *   passages the answering agents were given;
 * - `domain filter`: a gold section is in the whole book's top 5 but the answering agents' domain
 *   filters gave them other passages;
 * - `sentence choice`: a gold section was among the passages the agents were given, and the
 *   answer quoted (so cited) other ones.
 *
 * For answers that cite gold but not as citation [1], the rank of the first gold passage among
 * those the agents were given is counted: 0 means sentence choice quoted another passage first. Held-out lines (`"split": "heldout"`) and the held-out files are refused: their misses
 * are never printed.
 *
 * Usage: npx tsx scripts/answer-stage-gaps.ts [--misses] [--router-off] [--one-session]
 * [--corpus=DIR] FILE.jsonl… (the corpus defaults to ../shared/corpus/physical-ai-book; a set
 * written over another corpus, such as `eval/answers-ros2-second.jsonl`, names it with
 * `--corpus=../shared/corpus/ros2-docs`).
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { openAssistant } from '../src/assistant/index.js';
import { loadConfig } from '../src/config/index.js';
import {
  headingIsGold,
  loadRetrievalCases,
  parseGold,
  type RetrievalCase,
} from '../src/eval/index.js';
import { ingest } from '../src/retrieval/index.js';
import type { RetrievedChunk } from '../src/schema/index.js';
import { createStore, openPgliteDb } from '../src/store/index.js';
import { scriptArgs } from './script-args.js';

const HELD_OUT_FILES = [
  'answers-third.jsonl',
  'answers-fresh.jsonl',
  'retrieval-paraphrase-fresh.jsonl',
];
// A misspelt flag (`--miss`) was taken for no flag at all, and `--corpus DIR` for a file.
const { values, positionals: files } = scriptArgs(
  {
    options: {
      misses: { type: 'boolean', default: false },
      'router-off': { type: 'boolean', default: false },
      'one-session': { type: 'boolean', default: false },
      corpus: { type: 'string', default: '../shared/corpus/physical-ai-book' },
    },
    allowPositionals: true,
  },
  'npx tsx scripts/answer-stage-gaps.ts [--misses] [--router-off] [--one-session] [--corpus=DIR] FILE.jsonl…',
);
const corpusDir = values.corpus;
if (!existsSync(corpusDir)) {
  console.error(`Needs ${corpusDir} (the shared corpus beside the repository).`);
  process.exit(1);
}
for (const file of files) {
  if (HELD_OUT_FILES.includes(basename(file)) || /heldout/.test(basename(file))) {
    console.error(`${file} is a held-out set: its misses are never analysed.`);
    process.exit(1);
  }
}

/** Same rule as `citationIsGold`: same file, and the gold heading on the heading path. */
function chunkIsGold(chunk: Pick<RetrievedChunk, 'source' | 'title' | 'section'>, gold: string) {
  const { source, heading } = parseGold(gold);
  const headings = [chunk.title, ...(chunk.section ? chunk.section.split(' > ') : [])];
  return chunk.source === source && headings.some((h) => headingIsGold(h, heading));
}

const anyGold = (item: RetrievalCase, chunks: readonly RetrievedChunk[]) =>
  chunks.findIndex((chunk) => item.gold.some((gold) => chunkIsGold(chunk, gold)));

type Stage = 'not in book' | 'retrieval' | 'ranking 6-10' | 'domain filter' | 'sentence choice';

const store = await createStore(await openPgliteDb('memory://'));
await ingest(corpusDir, { store });
const base = loadConfig({ env: {} });
const config = values['router-off']
  ? { ...base, routing: { ...base.routing, enabled: false } }
  : base;
const opened = await openAssistant({ config, store });
const { assistant, retriever, registry } = opened;

const totals = new Map<string, { cases: number; cites: number; first: number }>();
const missStages = new Map<Stage, number>();
const firstGivenRank = new Map<number, number>();
const byAgent = new Map<string, Map<Stage, number>>();
const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

for (const file of files) {
  const cases = (await loadRetrievalCases(file)).filter((item) => item.split !== 'heldout');
  const total = { cases: cases.length, cites: 0, first: 0 };
  totals.set(file, total);
  for (const item of cases) {
    // --one-session: every question in one conversation, as a user asking them in a row would.
    const response = await assistant.ask({
      query: item.query,
      ...(values['one-session'] ? { sessionId: '7d0c6a52-1b7e-4a53-9f4e-2f7c1a9b3e10' } : {}),
    });
    const agents = (response.metadata.agentsRun as string[] | undefined) ?? [
      response.agentUsed ?? '',
    ];
    const whole = await retriever.retrieve(item.query, { limit: 10 });
    const given: RetrievedChunk[] = [];
    for (const name of agents) {
      const domain = registry.get(name)?.retrievalDomain;
      given.push(
        ...(await retriever.retrieve(item.query, { limit: 5, ...(domain ? { domain } : {}) })),
      );
    }
    const cites = response.citations.some((c) =>
      item.gold.some((gold) => chunkIsGold({ ...c, section: c.section ?? '' }, gold)),
    );
    const first = response.citations.find((c) => c.index === 1);
    const firstGold =
      first !== undefined &&
      item.gold.some((gold) => chunkIsGold({ ...first, section: first.section ?? '' }, gold));
    if (cites) total.cites += 1;
    if (firstGold) total.first += 1;
    if (firstGold) continue;
    const inWhole = anyGold(item, whole);
    const inGiven = anyGold(item, given);
    let stage: Stage;
    if (response.citations.length === 0 && inWhole >= 0 && inWhole < 5) stage = 'not in book';
    else if (inGiven >= 0) stage = 'sentence choice';
    else if (inWhole < 0) stage = 'retrieval';
    else if (inWhole >= 5) stage = 'ranking 6-10';
    else stage = 'domain filter';
    if (!cites) {
      bump(missStages, stage);
      const perAgent = byAgent.get(agents.join('+')) ?? new Map<Stage, number>();
      byAgent.set(agents.join('+'), perAgent);
      bump(perAgent, stage);
    } else {
      // Gold cited, not first: the ranking put it below another passage, or sentence choice
      // quoted another passage first although gold was ranked first.
      bump(firstGivenRank, inGiven);
    }
    if (values.misses && !cites) {
      console.log(`[${stage}] ${agents.join('+')}: ${item.query}`);
      console.log(`    gold  ${item.gold.join(' | ')}`);
      console.log(
        `    whole ${whole.map((c, i) => `${i + 1}:${c.source}#${c.section}`).join(' | ')}`,
      );
      console.log(
        `    cited ${response.citations.map((c) => `${c.source}#${c.section}`).join(' | ') || '-'}`,
      );
    }
  }
}
await opened.close();
await store.close();

console.log('\nset                               cases  cites gold  first gold');
for (const [file, t] of totals)
  console.log(
    `${basename(file).padEnd(34)}${String(t.cases).padStart(5)}  ${(t.cites / t.cases).toFixed(3).padStart(10)}  ${(t.first / t.cases).toFixed(3).padStart(10)}`,
  );
const stages: Stage[] = [
  'not in book',
  'retrieval',
  'ranking 6-10',
  'domain filter',
  'sentence choice',
];
console.log('\nstage that lost the gold      no gold cited');
for (const stage of stages)
  console.log(`${stage.padEnd(30)}${String(missStages.get(stage) ?? 0).padStart(12)}`);
console.log(
  '\ngold cited, not as [1]: rank of the first gold among the passages given (0 = first):',
  [...firstGivenRank]
    .sort((a, b) => a[0] - b[0])
    .map(([r, n]) => `${r}: ${n}`)
    .join(', '),
);
console.log('\nno gold cited, by answering agents:');
for (const [agents, map] of [...byAgent].sort())
  console.log(`  ${agents.padEnd(28)}${stages.map((s) => `${s} ${map.get(s) ?? 0}`).join(', ')}`);
