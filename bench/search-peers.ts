import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import MiniSearch from 'minisearch';
import { globSync } from 'tinyglobby';
import { analyze, createRetrieverFromChunks, prepareDocument } from '../src/retrieval/index.js';
import type { ChunkRecord } from '../src/schema/index.js';
import { collectGarbage } from './gc.js';
import type { BenchOptions } from './options.js';
import { percentile, ratio, round } from './stats.js';

const ROOT = resolve(import.meta.dirname, '..');
const ROS = join(ROOT, '../shared/corpus/ros2-docs');
const QUESTION_FILES = [
  join(ROOT, '../shared/eval/retrieval-dev.jsonl'),
  join(ROOT, 'eval/retrieval-paraphrase.jsonl'),
  join(ROOT, 'eval/retrieval-paraphrase-hard.jsonl'),
];
const LIMIT = 10;

/** One search engine as the bench drives it: build over the sections, then answer top-10. */
interface Engine {
  name: string;
  build(chunks: readonly ChunkRecord[]): Promise<(query: string) => unknown>;
}

const headings = (chunk: ChunkRecord) => chunk.headingPath.join('\n');

/** cohort's retriever with its default techniques, as `cohort ask` builds it. */
const cohortEngine: Engine = {
  name: 'cohort',
  async build(chunks) {
    const retriever = createRetrieverFromChunks(chunks);
    await retriever.warm();
    return (query) => retriever.retrieve(query, { limit: LIMIT });
  },
};

/** MiniSearch with cohort's tokenizer, stemmer and stop words, so both index the same terms. */
const miniSearchEngine: Engine = {
  name: 'MiniSearch',
  async build(chunks) {
    const index = new MiniSearch<ChunkRecord & { headings: string }>({
      fields: ['title', 'headings', 'text'],
      tokenize: (text) => analyze(text),
      processTerm: (term) => term,
    });
    index.addAll(chunks.map((chunk) => ({ ...chunk, headings: headings(chunk) })));
    return (query) => index.search(query).slice(0, LIMIT);
  },
};

/** Orama with the same tokenizer, stemmer and stop words. */
const oramaEngine: Engine = {
  name: 'Orama',
  async build(chunks) {
    const db: AnyOrama = create({
      schema: { title: 'string', headings: 'string', text: 'string' } as const,
      components: {
        tokenizer: {
          language: 'english',
          normalizationCache: new Map(),
          tokenize: (raw: string) => analyze(raw),
        },
      },
    });
    await insertMultiple(
      db,
      chunks.map((chunk) => ({ title: chunk.title, headings: headings(chunk), text: chunk.text })),
      1000,
    );
    return (query) => search(db, { term: query, limit: LIMIT });
  },
};

/** The ROS 2 docs' sections, copied `times` times under new paths (`copy-2/…`). */
function scaled(chunks: readonly ChunkRecord[], times: number): ChunkRecord[] {
  const out: ChunkRecord[] = [];
  for (let copy = 1; copy <= times; copy++) {
    for (const chunk of chunks) {
      out.push(
        copy === 1
          ? chunk
          : {
              ...chunk,
              id: `copy-${copy}/${chunk.id}`,
              source: `copy-${copy}/${chunk.source}`,
            },
      );
    }
  }
  return out;
}

/** JavaScript heap plus array buffers: typed arrays keep their contents outside `heapUsed`. */
function heldBytes(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

async function measure(
  engine: Engine,
  chunks: readonly ChunkRecord[],
  queries: readonly string[],
  rounds: number,
) {
  const gc = collectGarbage();
  gc?.();
  const before = heldBytes();
  const started = performance.now();
  let answer: ((query: string) => unknown) | undefined = await engine.build(chunks);
  const buildMs = performance.now() - started;
  gc?.();
  const heapMb = (heldBytes() - before) / 1024 / 1024;
  for (const query of queries) await answer(query);
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const t = performance.now();
      await answer(query);
      samples.push(performance.now() - t);
    }
  }
  answer = undefined;
  gc?.();
  return { buildMs, heapMb, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/**
 * cohort's retriever beside MiniSearch and Orama on the same ROS 2 sections at 1×, 4× and 16×
 * (sections copied under new paths), same tokenizer, stemmer and stop words, top 10: index build
 * time, heap held by the index (after a forced collection), and query p50/p99 over the dev and
 * paraphrase questions. Heap counts the JavaScript heap and array buffers (typed arrays). With
 * `--quick`, fewer rounds and no Orama at 16×. Ratios are cohort ÷ peer (< 1: cohort is faster or smaller); growth is
 * p50 at 16× ÷ p50 at 1×.
 */
export async function benchSearchPeers(
  options: BenchOptions,
): Promise<Record<string, number | string>> {
  if (!existsSync(ROS)) return { skipped: `${ROS} not found` };
  const base = globSync('**/*.{md,mdx,rst}', { cwd: ROS })
    .sort()
    .flatMap((file) => prepareDocument(file, readFileSync(join(ROS, file), 'utf8')).chunks);
  const queries = QUESTION_FILES.filter((file) => existsSync(file)).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { query: string }).query),
  );
  const rounds = options.quick ? 2 : 5;
  const engines = [cohortEngine, miniSearchEngine, oramaEngine];
  const figures: Record<string, number | string> = {
    sections: base.length,
    queries: queries.length * rounds,
    gc: collectGarbage() ? 'forced before each heap reading' : 'not available (heap is noisy)',
  };
  const p50 = new Map<string, number>();
  const heap = new Map<string, number>();
  for (const times of [1, 4, 16]) {
    const chunks = scaled(base, times);
    for (const engine of engines) {
      // Orama at 16× alone takes longer than the whole quick run may.
      if (options.quick && times === 16 && engine === oramaEngine) continue;
      const result = await measure(engine, chunks, queries, rounds);
      p50.set(`${engine.name} ${times}`, result.p50);
      heap.set(`${engine.name} ${times}`, result.heapMb);
      figures[`${times}× ${engine.name} build ms / heap MB`] =
        `${Math.round(result.buildMs)} / ${round(result.heapMb, 1)}`;
      figures[`${times}× ${engine.name} query p50 / p99 ms`] =
        `${round(result.p50)} / ${round(result.p99)}`;
    }
    for (const peer of ['MiniSearch', 'Orama']) {
      if (!p50.has(`${peer} ${times}`)) continue;
      figures[`${times}× cohort ÷ ${peer}: p50, heap`] = `${ratio(
        p50.get(`cohort ${times}`) as number,
        p50.get(`${peer} ${times}`) as number,
      )}, ${ratio(heap.get(`cohort ${times}`) as number, heap.get(`${peer} ${times}`) as number)}`;
    }
  }
  for (const engine of engines) {
    if (!p50.has(`${engine.name} 16`)) continue;
    figures[`${engine.name} p50 growth 1×→16×`] = ratio(
      p50.get(`${engine.name} 16`) as number,
      p50.get(`${engine.name} 1`) as number,
    );
  }
  const p50Ratio = ratio(p50.get('cohort 16') as number, p50.get('MiniSearch 16') as number);
  const heapRatio = ratio(heap.get('cohort 16') as number, heap.get('MiniSearch 16') as number);
  const growth = ratio(p50.get('cohort 16') as number, p50.get('cohort 1') as number);
  figures['target 16× p50 ≤ 0.25× MiniSearch'] =
    `${p50Ratio} ${p50Ratio <= 0.25 ? 'met' : 'missed'}`;
  figures['target 16× heap ≤ 1.0× MiniSearch'] =
    `${heapRatio} ${heapRatio <= 1 ? 'met' : 'missed'}`;
  figures['target p50 growth ≤ 6'] = `${growth} ${growth <= 6 ? 'met' : 'missed'}`;
  return figures;
}
