import type { RetrievedChunk } from '../schema/index.js';
import type { RetrievalCase } from './retrieval-cases.js';
import { headingPathOf, type Retriever } from '../retrieval/index.js';

/** One question's outcome: the 1-based rank of the first gold passage, if any was returned. */
export interface QueryResult {
  query: string;
  gold: string[];
  rank: number | undefined;
  top: string[];
}

/** Retrieval quality over a set of cases. `recallAtK` is the share of questions with a gold passage in the top k. */
export interface RetrievalReport {
  cases: number;
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
  perQuery: QueryResult[];
}

/** A gold reference `path#Heading` as its source path and lower-cased heading. */
export function parseGold(gold: string): { source: string; heading: string } {
  const hash = gold.indexOf('#');
  return {
    source: gold.slice(0, hash),
    heading: gold
      .slice(hash + 1)
      .trim()
      .toLowerCase(),
  };
}

/** A step number opening a heading ("3.1 Record a single topic", "2. Build"). */
const STEP_NUMBER = /^\d+(?:\.\d+)*\.?\s+/;

/**
 * True when a heading as the book writes it is the gold heading (lower-cased, see
 * {@link parseGold}): the same words, with or without the step number that opens it — a gold
 * label written "Record a single topic" names the ROS 2 tutorial's "3.1 Record a single topic".
 */
export function headingIsGold(heading: string, gold: string): boolean {
  const written = heading.trim().toLowerCase();
  return written === gold || written.replace(STEP_NUMBER, '') === gold;
}

/** True when `chunk` is the gold `path#Heading`: same file, and the heading is on its heading path. */
export function isGoldHit(chunk: RetrievedChunk, gold: string): boolean {
  const { source, heading } = parseGold(gold);
  return chunk.source === source && headingPathOf(chunk).some((h) => headingIsGold(h, heading));
}

const describe = (chunk: RetrievedChunk) => `${chunk.source}#${headingPathOf(chunk).at(-1) ?? ''}`;

/**
 * Runs every case through `retriever` and reports recall@1/5/10 and MRR (over the top 10).
 *
 * @example
 * const report = await evaluateRetrieval({ cases, retriever });
 * console.log(report.recallAt5);
 */
export async function evaluateRetrieval(input: {
  cases: RetrievalCase[];
  retriever: Retriever;
  k?: number[];
  signal?: AbortSignal;
}): Promise<RetrievalReport> {
  const depth = Math.max(10, ...(input.k ?? []));
  const perQuery: QueryResult[] = [];
  for (const item of input.cases) {
    const chunks = await input.retriever.retrieve(item.query, {
      limit: depth,
      signal: input.signal,
    });
    const index = chunks.findIndex((chunk) => item.gold.some((gold) => isGoldHit(chunk, gold)));
    perQuery.push({
      query: item.query,
      gold: item.gold,
      rank: index >= 0 ? index + 1 : undefined,
      top: chunks.slice(0, 5).map(describe),
    });
  }
  const share = (k: number) =>
    perQuery.filter((r) => r.rank !== undefined && r.rank <= k).length /
    Math.max(1, perQuery.length);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    cases: perQuery.length,
    recallAt1: round(share(1)),
    recallAt5: round(share(5)),
    recallAt10: round(share(10)),
    mrr: round(
      perQuery.reduce((sum, r) => sum + (r.rank && r.rank <= 10 ? 1 / r.rank : 0), 0) /
        Math.max(1, perQuery.length),
    ),
    perQuery,
  };
}
