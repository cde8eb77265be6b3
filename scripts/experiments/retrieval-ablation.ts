/**
 * Ablation of the model-free ranking techniques: R@1/R@5/R@10/MRR on the dev set, the old
 * paraphrase set, the hard paraphrase set and the quarter-overlap set (and, with `--heldout`, the
 * fresh held-out set), one row per technique set, BM25 first. Held-out sets are opt-in and their
 * misses are never printed: they are reported, not tuned on.
 *
 * Usage: npx tsx scripts/experiments/retrieval-ablation.ts [--heldout] [--misses=<row name>]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import {
  BM25_ONLY,
  createRetrieverFromChunks,
  prepareDocument,
} from '../../src/retrieval/index.js';
import { createExperimentalRanker, type ExperimentalRankerOptions } from './experimental-ranker.js';
import { evaluateRetrieval, parseRetrievalCases } from '../../src/eval/index.js';

const corpusDir = '../shared/corpus/physical-ai-book';
const sets = {
  dev: '../shared/eval/retrieval-dev.jsonl',
  paraphrase: 'eval/retrieval-paraphrase.jsonl',
  hard: 'eval/retrieval-paraphrase-hard.jsonl',
  quarter: 'eval/retrieval-paraphrase-quarter.jsonl',
  ...(process.argv.includes('--heldout') ? { fresh: 'eval/retrieval-paraphrase-fresh.jsonl' } : {}),
};
const HELD_OUT = new Set(['fresh']);
if (!existsSync(corpusDir) || !existsSync(sets.dev)) {
  console.error(`Need ${corpusDir} and ${sets.dev} (the shared folder sits beside the repo).`);
  process.exit(1);
}

/** The rows: each switches one technique off the default, or on over BM25. */
const rows: [string, ExperimentalRankerOptions['techniques'] | 'runtime'][] = [
  ['bm25', 'bm25'],
  ['runtime default (createRanker of src/retrieval)', 'runtime'],
  ['default (fields, acronyms, wordnet, question forms, defined terms)', undefined],
  ['default - question forms', { questionForms: false }],
  ['default - defined terms', { definedTerms: false }],
  ['default + document expansion', { documentExpansion: true }],
  ['default + document expansion (body words, definitions)', { documentExpansion: true }],
  ['default + subject', { subject: true }],
  ['default + definitions by idf', { definitionsByIdf: true }],
  ['default + concepts', { concepts: true }],
  ['default - fields', { fields: false }],
  ['default - acronyms', { acronyms: false }],
  ['default - wordnet', { wordnet: false }],
  ['default + lsi', { lsi: true }],
  ['default + feedback', { feedback: true }],
  ['default + bigrams', { bigrams: true }],
  ['all', 'all'],
  ['bm25 + document expansion', { ...BM25_ONLY, documentExpansion: true }],
];
/** Extra ranker options of a row, beyond its techniques. */
const rowOptions: Record<string, ExperimentalRankerOptions> = {
  'default + document expansion (body words, definitions)': {
    documentExpansion: { bodyWords: 4, definitionWeight: 0.5 },
  },
};

const chunks = globSync('**/*.{md,mdx}', { cwd: corpusDir })
  .sort()
  .flatMap((file) => prepareDocument(file, readFileSync(join(corpusDir, file), 'utf8')).chunks);
const cases = Object.fromEntries(
  Object.entries(sets)
    .filter(([, file]) => existsSync(file))
    .map(([name, file]) => [name, parseRetrievalCases(readFileSync(file, 'utf8'), file)]),
);
const missesOf = process.argv.find((a) => a.startsWith('--misses='))?.slice('--misses='.length);

const fmt = (n: number) => n.toFixed(2);
console.log(
  `| techniques | ${Object.keys(cases)
    .map((s) => `${s} R@1 / R@5 / R@10 / MRR`)
    .join(' | ')} |`,
);
console.log(
  `| --- | ${Object.keys(cases)
    .map(() => '---')
    .join(' | ')} |`,
);
for (const [name, techniques] of rows) {
  const retriever =
    techniques === 'runtime'
      ? createRetrieverFromChunks(chunks)
      : createRetrieverFromChunks(chunks, {
          ranker: (all) => createExperimentalRanker(all, { techniques, ...rowOptions[name] }),
        });
  const cells: string[] = [];
  for (const [setName, items] of Object.entries(cases)) {
    const report = await evaluateRetrieval({ cases: items, retriever });
    cells.push(
      `${fmt(report.recallAt1)} / ${fmt(report.recallAt5)} / ${fmt(report.recallAt10)} / ${fmt(report.mrr)}`,
    );
    if (missesOf === name && !HELD_OUT.has(setName)) {
      for (const q of report.perQuery.filter((r) => !r.rank || r.rank > 5)) {
        console.error(
          `[${setName}] rank ${q.rank ?? '-'}: ${q.query}\n   gold ${q.gold[0]}\n   top ${q.top.slice(0, 3).join(' | ')}`,
        );
      }
    }
  }
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
