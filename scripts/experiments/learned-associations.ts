/**
 * Word associations learned from labelled tune questions (issue 11, 2026-11-30, not kept): each
 * tune question's words that its gold section never uses are paired with that section's heading
 * words (and, in some variants, its bold-lead terms), p(t | w) is estimated from the pairs, and at
 * query time each query word's associated book terms are added as expansions at α · p(t | w)
 * (through `RankerOptions.extraExpansions`, which no runtime caller sets).
 *
 * Honest estimate: leave-one-set-out over the eleven textbook tune sets (each set's tune lines
 * ranked with associations learned from the other sets' tune lines only); the dev set and the ROS
 * 2 docs' tune half ranked with associations learned from every textbook tune line. Lines with
 * `"split": "heldout"` are skipped as they are read and never used.
 *
 * Usage: npx tsx scripts/experiments/learned-associations.ts [--quick]
 */
import { readFileSync } from 'node:fs';
import { ingest, createRanker, createRetrieverFromChunks } from '../../src/retrieval/index.js';
import { toRetrievedChunk } from '../../src/retrieval/retrievers/create-retriever.js';
import { createStore, openPgliteDb } from '../../src/store/index.js';
import { headingIsGold, isGoldHit, parseGold } from '../../src/eval/index.js';
import { analyze } from '../../src/retrieval/rank/tokenizer.js';
import { QUERY_STOPWORDS } from '../../src/retrieval/rank/stopwords.js';
import type { LexicalIndex } from '../../src/retrieval/rank/lexical-index.js';
import type { ChunkRecord } from '../../src/schema/index.js';

const TEXTBOOK = '../shared/corpus/physical-ai-book';
const ROS = '../shared/corpus/ros2-docs';
const TUNE_FILES = [
  'answers-tune-fifth',
  'answers-tune-sixth',
  'answers-tune-seventh',
  'answers-eighth',
  'answers-ninth',
  'answers-tenth',
  'answers-eleventh',
  'answers-twelfth',
  'answers-thirteenth',
  'answers-fourteenth',
  'answers-fifteenth',
];

interface Case {
  set: string;
  query: string;
  gold: string[];
}

/** The tune lines of a set: a held-out line is dropped as it is read, before anything looks at it. */
function tuneLines(file: string, set: string): Case[] {
  const out: Case[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const item = JSON.parse(line) as { query: string; gold: string[]; split?: string };
    if (item.split === 'heldout') continue;
    out.push({ set, query: item.query, gold: item.gold });
  }
  return out;
}

async function chunksOf(dir: string): Promise<ChunkRecord[]> {
  const store = await createStore(await openPgliteDb('memory://'));
  await ingest(dir, { store });
  const chunks = await store.chunks.all();
  await store.close();
  return chunks;
}

const words = (text: string) => analyze(text, QUERY_STOPWORDS).filter((t) => /^[a-z]{3,}$/.test(t));

/** What a question teaches: its words its gold sections never use, and those sections' terms. */
interface Pair {
  set: string;
  gold: string[];
  absent: string[];
  targets: string[];
}

function pairsOf(cases: Case[], chunks: readonly ChunkRecord[], bold: boolean): Pair[] {
  const pairs: Pair[] = [];
  for (const item of cases) {
    const text = new Set<string>();
    const targets = new Set<string>();
    for (const gold of item.gold) {
      const { heading } = parseGold(gold);
      const hits = chunks.filter((c) => isGoldHit(toRetrievedChunk(c, 1, false), gold));
      for (const c of hits) {
        for (const t of analyze(`${c.headingPath.join(' ')} ${c.title} ${c.text}`)) text.add(t);
        // The gold heading's own words, and bold leads of the gold chunks.
        for (const h of c.headingPath)
          if (headingIsGold(h, heading)) for (const t of words(h)) targets.add(t);
        if (bold)
          for (const m of c.text.matchAll(/\*\*([^*\n]{2,60})\*\*/g))
            for (const t of words(m[1] as string)) targets.add(t);
      }
    }
    const absent = [...new Set(words(item.query))].filter((w) => !text.has(w));
    if (absent.length > 0 && targets.size > 0)
      pairs.push({ set: item.set, gold: item.gold, absent, targets: [...targets] });
  }
  return pairs;
}

type Table = Map<string, Map<string, number>>;

/**
 * p(t | w) by counting: the share of training questions holding w (absent from gold) whose gold
 * terms hold t, smoothed by `k` extra questions; pairs seen fewer than `minCount` times dropped.
 */
function countTable(pairs: Pair[], minCount: number, k: number): Table {
  const n = new Map<string, number>();
  const c = new Map<string, Map<string, number>>();
  for (const { absent, targets } of pairs)
    for (const w of absent) {
      n.set(w, (n.get(w) ?? 0) + 1);
      const row = c.get(w) ?? new Map<string, number>();
      c.set(w, row);
      for (const t of targets) row.set(t, (row.get(t) ?? 0) + 1);
    }
  const table: Table = new Map();
  for (const [w, row] of c) {
    const out = new Map<string, number>();
    for (const [t, count] of row)
      if (count >= minCount) out.set(t, count / ((n.get(w) as number) + k));
    if (out.size > 0) table.set(w, out);
  }
  return table;
}

/**
 * IBM model 1 (targets generated from the question's absent words plus a null word), five EM
 * rounds; p(t | w) normalised over t. Pairs co-occurring fewer than `minCount` times dropped.
 */
function ibmTable(pairs: Pair[], minCount: number): Table {
  const NULL = '\u0000';
  const p = new Map<string, Map<string, number>>();
  const co = new Map<string, Map<string, number>>();
  for (const { absent, targets } of pairs)
    for (const w of [...absent, NULL]) {
      const row = p.get(w) ?? new Map<string, number>();
      p.set(w, row);
      const crow = co.get(w) ?? new Map<string, number>();
      co.set(w, crow);
      for (const t of targets) {
        row.set(t, 1);
        crow.set(t, (crow.get(t) ?? 0) + 1);
      }
    }
  for (const row of p.values()) for (const t of row.keys()) row.set(t, 1 / row.size);
  for (let round = 0; round < 5; round++) {
    const counts = new Map<string, Map<string, number>>();
    for (const { absent, targets } of pairs) {
      const sources = [...absent, NULL];
      for (const t of targets) {
        let z = 0;
        for (const w of sources) z += p.get(w)?.get(t) ?? 0;
        for (const w of sources) {
          const share = (p.get(w)?.get(t) ?? 0) / z;
          const row = counts.get(w) ?? new Map<string, number>();
          counts.set(w, row);
          row.set(t, (row.get(t) ?? 0) + share);
        }
      }
    }
    for (const [w, row] of counts) {
      let sum = 0;
      for (const v of row.values()) sum += v;
      p.set(w, new Map([...row].map(([t, v]) => [t, v / sum])));
    }
  }
  p.delete(NULL);
  const table: Table = new Map();
  for (const [w, row] of p) {
    const out = new Map<string, number>();
    for (const [t, v] of row) if ((co.get(w)?.get(t) ?? 0) >= minCount) out.set(t, v);
    if (out.size > 0) table.set(w, out);
  }
  return table;
}

interface Variant {
  name: string;
  model: 'count' | 'ibm';
  minCount: number;
  bold: boolean;
  absentOnly: boolean;
  alpha: number;
  /** At most this many associated terms per query word. */
  top: number;
}

function expander(table: Table, v: Variant) {
  return (
    query: string,
    index: LexicalIndex,
    terms: ReadonlyMap<string, number>,
    expansions: Map<string, number>,
  ) => {
    for (const w of new Set(words(query))) {
      if (v.absentOnly && index.df(w) > 0) continue;
      const row = table.get(w);
      if (!row) continue;
      const best = [...row].sort((a, b) => b[1] - a[1]).slice(0, v.top);
      for (const [t, p] of best) {
        if (terms.has(t) || index.df(t) === 0) continue;
        expansions.set(t, Math.max(expansions.get(t) ?? 0, v.alpha * p));
      }
    }
  };
}

const tableOf = (pairs: Pair[], v: Variant) =>
  v.model === 'count' ? countTable(pairs, v.minCount, 1) : ibmTable(pairs, v.minCount);

/** One retriever per corpus; the expansions of the moment are swapped in. */
let current: ReturnType<typeof expander> | undefined;
const retrievers = new Map<readonly ChunkRecord[], ReturnType<typeof createRetrieverFromChunks>>();
async function rankOf(
  chunks: readonly ChunkRecord[],
  cases: Case[],
  extra?: ReturnType<typeof expander>,
): Promise<(number | undefined)[]> {
  current = extra;
  let retriever = retrievers.get(chunks);
  if (!retriever) {
    retriever = createRetrieverFromChunks(chunks, {
      ranker: (all) => createRanker(all, { extraExpansions: (...args) => current?.(...args) }),
    });
    retrievers.set(chunks, retriever);
  }
  const out: (number | undefined)[] = [];
  for (const item of cases) {
    const top = await retriever.retrieve(item.query, { limit: 10 });
    const at = top.findIndex((c) => item.gold.some((g) => isGoldHit(c, g)));
    out.push(at >= 0 ? at + 1 : undefined);
  }
  return out;
}

const recall = (ranks: (number | undefined)[], k: number) =>
  ranks.filter((r) => r !== undefined && r <= k).length;

const book = await chunksOf(TEXTBOOK);
const ros = await chunksOf(ROS);
const tune = TUNE_FILES.flatMap((f) => tuneLines(`eval/${f}.jsonl`, f));
const dev = tuneLines('../shared/eval/retrieval-dev.jsonl', 'dev');
const rosTune = tuneLines('eval/answers-ros2-first.jsonl', 'ros');
console.log(
  `textbook ${book.length} chunks, ros ${ros.length}; tune ${tune.length}, dev ${dev.length}, ros tune ${rosTune.length}`,
);
const pairsByBold = new Map([true, false].map((b) => [b, pairsOf(tune, book, b)]));
console.log(`pairs: ${pairsByBold.get(false)?.length} questions teach something`);

const variants: Variant[] = [];
const base = { top: 10, absentOnly: false, bold: false, minCount: 1, model: 'count' } as const;
for (const model of ['count', 'ibm'] as const)
  for (const minCount of [1, 2])
    for (const absentOnly of [false, true])
      for (const bold of [false, true])
        for (const alpha of [0.15, 0.3, 0.6, 1])
          variants.push({
            ...base,
            model,
            minCount,
            absentOnly,
            bold,
            alpha,
            name: `${model} min${minCount} ${absentOnly ? 'absent' : 'all'} ${bold ? 'head+bold' : 'head'} α${alpha}`,
          });
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const chosen = only
  ? variants.filter((v) => only.split(',').includes(v.name))
  : quick
    ? variants.filter((v) => v.alpha === 0.3 && !v.bold)
    : variants;
/** `--sections`: each question also ranked with no training pair about any of its gold sections. */
const sectionDisjoint = process.argv.includes('--sections');

const baseCv = await rankOf(book, tune);
const baseDev = await rankOf(book, dev);
const baseRos = await rankOf(ros, rosTune);
const in5 = (r: number | undefined) => r !== undefined && r <= 5;
const moved = (cv: (number | undefined)[]) =>
  `+${cv.filter((r, i) => in5(r) && !in5(baseCv[i])).length} −${cv.filter((r, i) => !in5(r) && in5(baseCv[i])).length}`;
const row = (
  name: string,
  cv: (number | undefined)[],
  d: (number | undefined)[],
  r: (number | undefined)[],
) =>
  console.log(
    `| ${name} | ${recall(cv, 1)} / ${recall(cv, 5)} | ${moved(cv)} | ${(recall(d, 1) / d.length).toFixed(3)} / ${(recall(d, 5) / d.length).toFixed(3)} | ${recall(r, 1)} / ${recall(r, 5)} |`,
  );
console.log(
  `| variant | CV R@1 / R@5 (of ${tune.length}) | R@5 gained / lost | dev R@1 / R@5 | ROS tune R@1 / R@5 (of ${rosTune.length}) |`,
);
console.log('| --- | --- | --- | --- | --- |');
row('runtime', baseCv, baseDev, baseRos);
for (const v of chosen) {
  const pairs = pairsByBold.get(v.bold) as Pair[];
  const cv: (number | undefined)[] = [];
  for (const set of TUNE_FILES) {
    const held = tune.filter((c) => c.set === set);
    const table = tableOf(
      pairs.filter((p) => p.set !== set),
      v,
    );
    cv.push(...(await rankOf(book, held, expander(table, v))));
  }
  const all = expander(tableOf(pairs, v), v);
  const d = await rankOf(book, dev, all);
  const r = await rankOf(ros, rosTune, all);
  row(v.name, cv, d, r);
  if (!sectionDisjoint) continue;
  // The same, each question ranked with associations from other sets' questions on other sections.
  const disjoint: (number | undefined)[] = [];
  const seen: boolean[] = [];
  for (const item of tune) {
    const others = pairs.filter((p) => p.set !== item.set);
    const kept = others.filter((p) => !p.gold.some((g) => item.gold.includes(g)));
    seen.push(kept.length < others.length);
    disjoint.push(...(await rankOf(book, [item], expander(tableOf(kept, v), v))));
  }
  row(`${v.name}, no pair on its gold sections`, disjoint, d, r);
  const split = (want: boolean) => {
    const idx = tune.map((_, i) => i).filter((i) => seen[i] === want);
    const g = idx.filter((i) => in5(cv[i]) && !in5(baseCv[i])).length;
    const l = idx.filter((i) => !in5(cv[i]) && in5(baseCv[i])).length;
    return `${idx.length} questions: R@5 ${idx.filter((i) => in5(baseCv[i])).length} → ${idx.filter((i) => in5(cv[i])).length} (+${g} −${l})`;
  };
  console.log(`    gold section asked in another set: ${split(true)}; not: ${split(false)}`);
}
