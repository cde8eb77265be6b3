/**
 * Index build time and query latency (p50/p99) of the default ranker on both shared corpora.
 * Queries: the dev and paraphrase questions, each run several times after one warm-up pass.
 *
 * Usage: npx tsx scripts/retrieval-timings.ts ['"bm25"' | '{"wordnet":false}']
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import {
  createRetrieverFromChunks,
  prepareDocument,
  type RankerOptions,
} from '../src/retrieval/index.js';
import { parseRetrievalCases } from '../src/eval/index.js';
import { scriptArgs } from './script-args.js';

const corpora = ['../shared/corpus/physical-ai-book', '../shared/corpus/ros2-docs'];
const questionFiles = [
  '../shared/eval/retrieval-dev.jsonl',
  'eval/retrieval-paraphrase.jsonl',
  'eval/retrieval-paraphrase-hard.jsonl',
  'eval/retrieval-paraphrase-quarter.jsonl',
].filter((file) => existsSync(file));
if (!corpora.every((dir) => existsSync(dir)) || questionFiles.length === 0) {
  console.error('Need ../shared/corpus/{physical-ai-book,ros2-docs} and the eval sets.');
  process.exit(1);
}
const usage = `npx tsx scripts/retrieval-timings.ts ['"bm25"' | '{"wordnet":false}']`;
const [given] = scriptArgs({ options: {}, allowPositionals: true }, usage).positionals;
let techniques: RankerOptions['techniques'] | null = null;
try {
  techniques = JSON.parse(given ?? 'null') as RankerOptions['techniques'] | null;
} catch {
  console.error(`The techniques must be JSON, not ${given}.\nusage: ${usage}`);
  process.exit(2);
}
const queries = questionFiles.flatMap((file) =>
  parseRetrievalCases(readFileSync(file, 'utf8'), file).map((c) => c.query),
);
const ROUNDS = 5;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

for (const dir of corpora) {
  const chunks = globSync('**/*.{md,mdx,rst}', { cwd: dir })
    .sort()
    .flatMap((file) => prepareDocument(file, readFileSync(join(dir, file), 'utf8')).chunks);
  const retriever = createRetrieverFromChunks(chunks, techniques ? { techniques } : {});
  const start = performance.now();
  await retriever.warm();
  const build = performance.now() - start;
  for (const query of queries) await retriever.retrieve(query, { limit: 10 });
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of queries) {
      const t = performance.now();
      await retriever.retrieve(query, { limit: 10 });
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  console.log(
    `${dir}: ${chunks.length} chunks, build ${build.toFixed(0)} ms, query p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms (${times.length} queries)`,
  );
}
