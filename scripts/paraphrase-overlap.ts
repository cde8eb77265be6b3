/**
 * How much a paraphrase set paraphrases: for each question, the share of its content words
 * (tokenized, stopwords and asking-words dropped, Porter-stemmed) that also occur in its gold
 * section (heading path and text, subsections included); then the set's mean and median.
 *
 * Usage: npx tsx scripts/paraphrase-overlap.ts [cases.jsonl] [corpusDir] [--each]
 * Defaults: eval/retrieval-paraphrase-hard.jsonl over ../shared/corpus/physical-ai-book.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { analyze } from '../src/retrieval/rank/tokenizer.js';
import { QUERY_STOPWORDS } from '../src/retrieval/rank/stopwords.js';
import { parseGold, parseRetrievalCases } from '../src/eval/index.js';
import { prepareDocument } from '../src/retrieval/index.js';
import type { ChunkRecord } from '../src/schema/index.js';
import { scriptArgs } from './script-args.js';

const { values, positionals: args } = scriptArgs(
  { options: { each: { type: 'boolean', default: false } }, allowPositionals: true },
  'npx tsx scripts/paraphrase-overlap.ts [cases.jsonl] [corpusDir] [--each]',
);
const each = values.each;
const casesFile = args[0] ?? 'eval/retrieval-paraphrase-hard.jsonl';
const corpusDir = args[1] ?? '../shared/corpus/physical-ai-book';
if (!existsSync(corpusDir) || !existsSync(casesFile)) {
  console.error(`Need ${casesFile} and ${corpusDir} (the shared corpus sits beside the repo).`);
  process.exit(1);
}

const chunks: ChunkRecord[] = globSync('**/*.{md,mdx,rst}', { cwd: corpusDir })
  .sort()
  .flatMap((file) => prepareDocument(file, readFileSync(join(corpusDir, file), 'utf8')).chunks);

/** Stemmed content terms of the gold section `path#Heading`: every chunk under that heading. */
function sectionTerms(gold: string): Set<string> {
  const { source, heading } = parseGold(gold);
  const terms = new Set<string>();
  for (const chunk of chunks) {
    if (chunk.source !== source) continue;
    if (!chunk.headingPath.some((h) => h.trim().toLowerCase() === heading)) continue;
    for (const term of analyze(`${chunk.headingPath.join('\n')}\n${chunk.text}`)) terms.add(term);
  }
  if (terms.size === 0) throw new Error(`Gold section not found in the corpus: ${gold}`);
  return terms;
}

const cases = parseRetrievalCases(readFileSync(casesFile, 'utf8'), casesFile);
const overlaps = cases.map((item) => {
  const words = [...new Set(analyze(item.query, QUERY_STOPWORDS))];
  // With several gold sections the question counts against the one it overlaps most.
  const best = Math.max(
    ...item.gold.map((gold) => {
      const section = sectionTerms(gold);
      return words.filter((w) => section.has(w)).length / Math.max(1, words.length);
    }),
  );
  if (each) console.log(`${best.toFixed(2)}  ${item.query}`);
  return best;
});
const sorted = [...overlaps].sort((a, b) => a - b);
const mean = overlaps.reduce((a, b) => a + b, 0) / overlaps.length;
const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
const above = overlaps.filter((o) => o > 0.3 + 1e-9).length;
console.log(
  `${casesFile}: ${cases.length} questions, mean overlap ${mean.toFixed(3)}, median ${median.toFixed(2)}, ${above} above 0.30`,
);
