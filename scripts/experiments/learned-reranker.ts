import type { ChunkRecord } from '../../src/schema/index.js';
import { mineAcronyms } from '../../src/retrieval/rank/acronyms.js';
import { DEFINED_TERM_WEIGHT, definedTermIndex } from '../../src/retrieval/rank/defined-terms.js';
import {
  buildLexicalIndex,
  DEFAULT_FIELD_WEIGHTS,
} from '../../src/retrieval/rank/lexical-index.js';
import {
  DEFAULT_TECHNIQUES,
  expandQuery,
  maxAttainableScore,
  relevance,
  scoredLists,
  type Ranker,
  type Techniques,
} from '../../src/retrieval/rank/ranker.js';
import {
  createScoreScratch,
  topScoring,
  type ScoredList,
} from '../../src/retrieval/rank/score-lists.js';
import { openWordNet, type WordNet } from '../../src/retrieval/rank/wordnet.js';
import {
  chunkProfiles,
  rerankFeatures,
  type RerankCandidate,
  type RerankQuery,
} from './rerank-features.js';
import { rerankScorer, type RerankModel } from './rerank-model.js';

/** The first stage of a ranking: the expanded query and its best candidates, best first. */
export interface FirstStage {
  query: RerankQuery;
  candidates: RerankCandidate[];
  /** The best score a chunk could reach for the query's own terms (see `relevance`). */
  maxAttainable: number;
}

/** The runtime ranker, then a learned reranker over its best candidates. */
export interface LearnedRanker extends Ranker {
  /** The runtime ranking alone (the same order `createRanker` gives), with the expanded query. */
  firstStage(query: string, options?: { limit?: number; mask?: Uint8Array }): FirstStage;
  /** The reranker's feature vectors of first-stage candidates. */
  features(stage: FirstStage): Float64Array[];
}

/**
 * The runtime ranker's first stage (BM25F, acronyms, WordNet, question forms, defined terms, built
 * from the same parts as `createRanker`), then, when `model` is given, its `depth` best candidates
 * reordered by the model's score; each chunk keeps its first-stage 0..1 relevance as `score`.
 *
 * @example
 * const ranker = createLearnedRanker(chunks, { model });
 * ranker.rank('Can a bot improve by sparring with clones of itself?', { limit: 5 });
 */
export function createLearnedRanker(
  chunks: readonly ChunkRecord[],
  options: { model?: RerankModel; wordnet?: WordNet } = {},
): LearnedRanker {
  // The runtime's techniques when the reranker was fitted (README, "Learned reranker"): the
  // section headed by the question's words (`headingNamed`, later) is not in this first stage.
  const techniques: Techniques = { ...DEFAULT_TECHNIQUES, headingNamed: false };
  const index = buildLexicalIndex(chunks, { fields: DEFAULT_FIELD_WEIGHTS });
  const defined = definedTermIndex(chunks);
  let wordnet = options.wordnet;
  const sources = {
    acronyms: mineAcronyms(chunks.map((c) => c.text)),
    wordnet: () => (wordnet ??= openWordNet()),
  };
  const scratch = createScoreScratch(chunks.length);
  const profiles = chunkProfiles(chunks, sources.wordnet);
  const score = options.model && rerankScorer(options.model);

  const firstStage: LearnedRanker['firstStage'] = (query, { limit = 5, mask } = {}) => {
    const concepts = new Map<string, string>();
    const { terms, expansions } = expandQuery(query, index, techniques, sources, { concepts });
    const lists = [...scoredLists(index, terms, true), ...scoredLists(index, expansions, false)];
    const bonuses = defined.bonuses(terms, index, mask);
    if (bonuses.size > 0) {
      const docs = Int32Array.from(bonuses.keys()).sort();
      const weights = Float64Array.from(docs, (doc) => bonuses.get(doc) as number);
      lists.push({ docs, weights, factor: DEFINED_TERM_WEIGHT, own: false } satisfies ScoredList);
    }
    return {
      query: { terms, expansions, concepts },
      candidates: topScoring(lists, limit, scratch, mask),
      maxAttainable: maxAttainableScore(terms, index),
    };
  };
  const features: LearnedRanker['features'] = (stage) =>
    rerankFeatures(stage.query, stage.candidates, index, profiles);

  return {
    chunks,
    techniques,
    firstStage,
    features,
    rank(query, { limit = 5, mask } = {}) {
      const depth = options.model ? Math.max(limit, options.model.depth) : limit;
      const stage = firstStage(query, { limit: depth, mask });
      let ordered = stage.candidates;
      if (score && ordered.length > 1) {
        const scores = features(stage).map(score);
        // Ties keep the first-stage order (the sort is stable).
        ordered = ordered
          .map((candidate, i) => ({ candidate, by: scores[i] as number }))
          .sort((a, b) => b.by - a.by)
          .map(({ candidate }) => candidate);
      }
      return ordered.slice(0, limit).map(({ doc, own, total }) => ({
        doc,
        chunk: chunks[doc] as ChunkRecord,
        raw: total,
        score: relevance(own, total, stage.maxAttainable),
      }));
    },
  };
}
