import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import type { RetrievedChunk } from '../schema/index.js';
import { createRetrieverFromChunks, prepareDocument } from '../retrieval/index.js';
import { evaluateRetrievalOnCorpus } from './evaluate-on-corpus.js';
import { evaluateRetrieval, isGoldHit } from './evaluate-retrieval.js';
import { loadRetrievalCases, parseRetrievalCases } from './retrieval-cases.js';

const passage = (source: string, headingPath: string[]): RetrievedChunk => ({
  text: 'x',
  source,
  title: headingPath[0] ?? '',
  section: headingPath.slice(1).join(' > '),
  score: 0.5,
  metadata: { headingPath },
});

describe('retrieval evaluation', () => {
  it('counts a hit when the file matches and the gold heading is on the path', () => {
    const chunk = passage('a/index.md', [
      'Chapter',
      'Navigation',
      'Local Path Planning',
      'Obstacle Avoidance',
    ]);
    expect(isGoldHit(chunk, 'a/index.md#Local Path Planning')).toBe(true);
    expect(isGoldHit(chunk, 'b/index.md#Local Path Planning')).toBe(false);
    expect(isGoldHit(chunk, 'a/index.md#Global Path Planning')).toBe(false);
  });

  it('counts a step heading named without its number', () => {
    const step = passage('bag.rst', ['Recording', 'Record topics', '3.1 Record a single topic']);
    expect(isGoldHit(step, 'bag.rst#Record a single topic')).toBe(true);
    expect(isGoldHit(step, 'bag.rst#Record topics')).toBe(true);
  });

  it('computes recall@k and MRR from ranks', async () => {
    const retriever = {
      retrieve: async (query: string) =>
        query === 'first'
          ? [passage('a.md', ['A', 'Hit'])]
          : [
              passage('a.md', ['A', 'Miss']),
              passage('a.md', ['A', 'Miss2']),
              passage('a.md', ['A', 'Hit']),
            ],
    };
    const cases = [
      { query: 'first', gold: ['a.md#Hit'] },
      { query: 'third', gold: ['a.md#Hit'] },
      { query: 'never', gold: ['b.md#Hit'] },
    ];
    const report = await evaluateRetrieval({ cases, retriever });
    expect(report.perQuery.map((q) => q.rank)).toEqual([1, 3, undefined]);
    const neverRetriever = { retrieve: async () => [] };
    const none = await evaluateRetrieval({ cases, retriever: neverRetriever });
    expect(none).toMatchObject({ recallAt1: 0, recallAt5: 0, mrr: 0 });
    expect(report.recallAt1).toBeCloseTo(1 / 3, 2);
    expect(report.recallAt5).toBeCloseTo(2 / 3, 2);
    expect(report.mrr).toBeCloseTo((1 + 1 / 3) / 3, 2);
  });

  it('validates each JSONL line, naming the line and field', async () => {
    expect(parseRetrievalCases('{"query":"q","gold":["a.md#H"]}\n\n')).toHaveLength(1);
    expect(() =>
      parseRetrievalCases(
        '{"query":"q","gold":["a.md#H"]}\n{"query":"","gold":["a.md#H"]}',
        'set.jsonl',
      ),
    ).toThrow(/set\.jsonl:2: query/);
    expect(() => parseRetrievalCases('{"query":"q","gold":["no-heading"]}', 'set.jsonl')).toThrow(
      /set\.jsonl:1: gold\.0/,
    );
    expect(() => parseRetrievalCases('not json', 'set.jsonl')).toThrow(/set\.jsonl:1/);
    const missing = await loadRetrievalCases('/no/such/file.jsonl').catch((e: unknown) => e);
    expect(isCohortError(missing, 'invalid_input')).toBe(true);
  });

  it('refuses to evaluate in a user data folder', async () => {
    const error = await evaluateRetrievalOnCorpus({
      corpusDir: '.',
      casesFile: 'x',
      dataDir: '/home/me/.cohort',
    }).catch((e: unknown) => e);
    expect(isCohortError(error, 'invalid_input')).toBe(true);
  });
});

const corpus = new URL('../../../shared/corpus/physical-ai-book', import.meta.url).pathname;
const devSet = new URL('../../../shared/eval/retrieval-dev.jsonl', import.meta.url).pathname;
const paraphraseSet = new URL('../../eval/retrieval-paraphrase.jsonl', import.meta.url).pathname;
const hardSet = new URL('../../eval/retrieval-paraphrase-hard.jsonl', import.meta.url).pathname;
const quarterSet = new URL('../../eval/retrieval-paraphrase-quarter.jsonl', import.meta.url)
  .pathname;
const freshSet = new URL('../../eval/retrieval-paraphrase-fresh.jsonl', import.meta.url).pathname;

describe.skipIf(!existsSync(corpus) || !existsSync(devSet))(
  'retrieval quality on the shared book (needs ../shared)',
  () => {
    const chunks = globSync('**/*.{md,mdx}', { cwd: corpus })
      .sort()
      .flatMap((file) => prepareDocument(file, readFileSync(join(corpus, file), 'utf8')).chunks);
    const read = (file: string) => parseRetrievalCases(readFileSync(file, 'utf8'), file);

    it('ingests into a separate store and beats the floors on the dev set', async () => {
      const report = await evaluateRetrievalOnCorpus({ corpusDir: corpus, casesFile: devSet });
      expect(report.ingest.files).toBe(24);
      // Measured 0.95 recall@5 and 0.90 MRR (BM25 baseline 0.93 / 0.86); floors sit a little below.
      expect(report.recallAt5).toBeGreaterThanOrEqual(0.9);
      expect(report.mrr).toBeGreaterThanOrEqual(0.84);
    });

    /** The default ranking and plain BM25 on the same questions. */
    const againstBm25 = async (cases: ReturnType<typeof read>) => ({
      ranked: await evaluateRetrieval({ cases, retriever: createRetrieverFromChunks(chunks) }),
      bm25: await evaluateRetrieval({
        cases,
        retriever: createRetrieverFromChunks(chunks, { techniques: 'bm25' }),
      }),
    });

    // Measured with the default techniques / plain BM25 (recall@5, MRR): paraphrase 0.65 / 0.44
    // vs 0.54 / 0.38; hard 0.36 / 0.24 vs 0.24 / 0.19; quarter 0.55 / 0.30 vs 0.33 / 0.13; fresh
    // 0.42 / 0.26 vs 0.35 / 0.22. Floors sit a little below.
    it.each([
      { set: 'paraphrased questions', file: paraphraseSet, cases: 40, recall5: 0.6, mrr: 0.4 },
      {
        set: 'the hard set (an eighth of words shared)',
        file: hardSet,
        cases: 50,
        recall5: 0.32,
        mrr: 0.21,
      },
      { set: 'the quarter-overlap set', file: quarterSet, cases: 50, recall5: 0.5, mrr: 0.26 },
      {
        set: 'the fresh held-out set (random sections, 22% of words shared)',
        file: freshSet,
        cases: 80,
        recall5: 0.38,
        mrr: 0.23,
      },
    ])('beats plain BM25 on $set', async ({ file, cases: size, recall5, mrr }) => {
      const cases = read(file);
      expect(cases.length).toBeGreaterThanOrEqual(size);
      const { ranked, bm25 } = await againstBm25(cases);
      expect(ranked.recallAt5).toBeGreaterThanOrEqual(recall5);
      expect(ranked.mrr).toBeGreaterThanOrEqual(mrr);
      expect(ranked.recallAt5).toBeGreaterThan(bm25.recallAt5);
    });
  },
);
