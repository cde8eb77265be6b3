import type { ChunkRecord } from '../../src/schema/index.js';
import { mineAcronyms, type AcronymMap } from '../../src/retrieval/rank/acronyms.js';
import {
  buildLexicalIndex,
  DEFAULT_FIELD_WEIGHTS,
  type LexicalIndex,
} from '../../src/retrieval/rank/lexical-index.js';
import { expandDocuments, type DocumentExpansionOptions } from './document-expansion.js';
import { type ConceptMap } from '../../src/retrieval/rank/query-expansion.js';
import { definedTermIndex } from '../../src/retrieval/rank/defined-terms.js';
import { analyze } from '../../src/retrieval/rank/tokenizer.js';
import { topK } from '../../src/retrieval/rank/top-k.js';
import { openWordNet } from '../../src/retrieval/rank/wordnet.js';
import {
  BM25_ONLY,
  DEFAULT_TECHNIQUES,
  expandQuery,
  maxAttainableScore,
  relevance,
  type Ranker,
  type RankerOptions,
  type Techniques,
} from '../../src/retrieval/rank/ranker.js';
import {
  buildLatentSemanticIndex,
  DEFAULT_LSI_DIMENSIONS,
  type LatentSemanticIndex,
} from './latent-semantic-index.js';

/**
 * The runtime ranker's techniques plus the ones no default configuration turned on, for
 * measuring (see README.md here). Each can be switched on or off.
 */
export interface ExperimentTechniques extends Techniques {
  /** Pseudo-relevance feedback (RM3-like): terms of the top chunks, at low weight. */
  feedback: boolean;
  /** Adjacent-term pairs, rewarding phrase matches. */
  bigrams: boolean;
  /** Latent semantic indexing from the corpus: finds passages through co-occurring words. */
  lsi: boolean;
  /** Document-side WordNet expansion of each chunk's heading and distinctive words, in a low-weight field. */
  documentExpansion: boolean;
  /** A bonus for sections whose heading words all occur in the query ("What is the reality gap?"). */
  subject: boolean;
  /** WordNet definition words weighted apart from synonyms, by corpus idf. */
  definitionsByIdf: boolean;
  /** Saturation per query concept (a word and its expansions) and a bonus for covering more concepts. */
  concepts: boolean;
}

/** Every technique on. */
export const ALL_EXPERIMENTS: ExperimentTechniques = {
  ...DEFAULT_TECHNIQUES,
  feedback: true,
  bigrams: true,
  lsi: true,
  documentExpansion: true,
  subject: true,
  definitionsByIdf: true,
  concepts: true,
};
/** The runtime default: none of the experiments on. */
export const NO_EXPERIMENTS: ExperimentTechniques = {
  ...DEFAULT_TECHNIQUES,
  feedback: false,
  bigrams: false,
  lsi: false,
  documentExpansion: false,
  subject: false,
  definitionsByIdf: false,
  concepts: false,
};

/** Options of {@link createExperimentalRanker}. */
export interface ExperimentalRankerOptions extends Omit<RankerOptions, 'techniques'> {
  /** Unset for the runtime default, `'all'`, `'bm25'`, or changes to the runtime default. */
  techniques?: 'all' | 'bm25' | Partial<ExperimentTechniques>;
  /** Tuning of document-side expansion, when that technique is on. */
  documentExpansion?: DocumentExpansionOptions;
}

/** Resolves the `techniques` option to a full set. */
export function resolveExperiments(
  option: ExperimentalRankerOptions['techniques'],
): ExperimentTechniques {
  if (option === undefined) return NO_EXPERIMENTS;
  if (option === 'all') return ALL_EXPERIMENTS;
  if (option === 'bm25') return { ...NO_EXPERIMENTS, ...BM25_ONLY };
  return { ...NO_EXPERIMENTS, ...option };
}

/** Feedback: how many top chunks are read, how many terms are taken, and their total weight. */
const FEEDBACK_DOCS = 5;
const FEEDBACK_TERMS = 10;
const FEEDBACK_WEIGHT = 0.3;
/** Terms in more than this share of chunks say nothing about a topic and are never fed back. */
const FEEDBACK_MAX_DF_SHARE = 0.1;

/** Weight of the latent (LSI) cosine against the lexical score scaled to the query's best chunk. */
export const LSI_WEIGHT = 0.25;
/** Latent dimensions: at most the LSI default, and one per this many chunks (a small book gets fewer). */
const LSI_CHUNKS_PER_DIMENSION = 8;
/** Chunks taken from the latent ranking alone, beyond those a query word matched. */
const LSI_CANDIDATES = 50;
/** Share of the latent cosine counted as relevance: related, maybe with no shared word, so weak. */
const LSI_EVIDENCE = 0.3;

/** Subject bonus: this share of the idf of a section's heading words when the query holds them all. */
export const SUBJECT_WEIGHT = 0.5;
/** Coverage bonus: a chunk matching every query concept scores this much more than one matching one. */
export const COVERAGE_WEIGHT = 0.5;

/** The `count` chunks most similar in the latent space, among those `mask` allows. */
function topLatent(latent: Float32Array, mask: Uint8Array | undefined, count: number): number[] {
  const docs: number[] = [];
  for (let doc = 0; doc < latent.length; doc++) {
    if (mask && mask[doc] === 0) continue;
    docs.push(doc);
  }
  return topK(latent, docs, count);
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
 * The runtime ranker with the experiments that can be switched on: a drop-in {@link Ranker} for
 * `createRetrieverFromChunks(chunks, { ranker })`, so an experiment is measured by the same
 * retrieval evaluation as the default.
 *
 * @example
 * const ranker = createExperimentalRanker(chunks, { techniques: { lsi: true } });
 * ranker.rank('how does a robot know where it is', { limit: 5 });
 */
export function createExperimentalRanker(
  chunks: readonly ChunkRecord[],
  options: ExperimentalRankerOptions = {},
): Ranker {
  const techniques = resolveExperiments(options.techniques);
  let wordnet = options.wordnet;
  if (techniques.documentExpansion) wordnet ??= openWordNet();
  const index = buildLexicalIndex(chunks, {
    fields: techniques.fields ? (options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS) : undefined,
    bigrams: techniques.bigrams,
    expansion:
      techniques.documentExpansion && wordnet
        ? expandDocuments(chunks, wordnet, options.documentExpansion)
        : undefined,
  });
  const subjects = techniques.subject ? subjectIndex(chunks) : undefined;
  const defined = techniques.definedTerms ? definedTermIndex(chunks) : undefined;
  const acronyms: AcronymMap = techniques.acronyms
    ? mineAcronyms(chunks.map((c) => c.text))
    : new Map();
  const sources = { acronyms, wordnet: () => (wordnet ??= openWordNet()) };
  const lsi: LatentSemanticIndex | undefined = techniques.lsi
    ? buildLatentSemanticIndex(
        chunks.map((_, doc) => index.termVector(doc)),
        {
          dimensions: Math.min(
            DEFAULT_LSI_DIMENSIONS,
            Math.floor(chunks.length / LSI_CHUNKS_PER_DIMENSION),
          ),
        },
      )
    : undefined;
  const latent = new Float32Array(chunks.length);
  const scores = new Float64Array(chunks.length);
  const base = new Float64Array(chunks.length);
  const fused = new Float64Array(chunks.length);
  const scratch = new Float64Array(chunks.length);
  const conceptScores = new Float64Array(chunks.length);
  const covered = new Uint16Array(chunks.length);

  /**
   * Scores by query concept: within a concept (a query word and its expansions) only the best
   * matching term counts, so five synonyms of one word cannot outweigh two different words; then
   * chunks matching more of the query's concepts get up to {@link COVERAGE_WEIGHT} more.
   */
  function accumulateConcepts(
    terms: Map<string, number>,
    expansions: Map<string, number>,
    concepts: ConceptMap,
    mask: Uint8Array | undefined,
  ): number[] {
    const groups = new Map<string, Map<string, number>>();
    const group = (concept: string) => {
      let found = groups.get(concept);
      if (!found) groups.set(concept, (found = new Map()));
      return found;
    };
    for (const [term, weight] of terms) group(term).set(term, weight);
    for (const [term, weight] of expansions) group(concepts.get(term) ?? term).set(term, weight);
    const touched: number[] = [];
    covered.fill(0);
    let total = 0;
    for (const members of groups.values()) {
      const docs: number[] = [];
      for (const [term, weight] of members) {
        const hit = index.accumulate(new Map([[term, weight]]), scratch, mask);
        for (const doc of hit) {
          if (conceptScores[doc] === 0) docs.push(doc);
          conceptScores[doc] = Math.max(conceptScores[doc] as number, scratch[doc] as number);
          scratch[doc] = 0;
        }
      }
      if (docs.length > 0) total += 1;
      for (const doc of docs) {
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = (scores[doc] as number) + (conceptScores[doc] as number);
        covered[doc] = (covered[doc] as number) + 1;
        conceptScores[doc] = 0;
      }
    }
    if (total > 1) {
      for (const doc of touched) {
        const share = ((covered[doc] as number) - 1) / (total - 1);
        scores[doc] = (scores[doc] as number) * (1 + COVERAGE_WEIGHT * share);
      }
    }
    return touched;
  }

  return {
    chunks,
    techniques,
    rank(query, { limit = 5, mask } = {}) {
      const concepts: ConceptMap = new Map();
      const { terms, expansions } = expandQuery(query, index, techniques, sources, {
        definitionsByIdf: techniques.definitionsByIdf,
        concepts,
      });
      const maxAttainable = maxAttainableScore(terms, index);

      base.fill(0);
      const own = index.accumulate(terms, base, mask);
      let touched: number[];
      if (techniques.concepts) {
        scores.fill(0);
        touched = accumulateConcepts(terms, expansions, concepts, mask);
      } else {
        // The query's own terms are scored once, into `base`, and carried over.
        scores.set(base);
        touched = [...own, ...index.accumulate(expansions, scores, mask)];
      }
      if (subjects) {
        for (const doc of subjects.matches(terms, mask)) {
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] = (scores[doc] as number) + SUBJECT_WEIGHT * subjects.weight(doc, index);
        }
      }
      if (defined) touched.push(...defined.addBonus(terms, scores, index, mask));
      if (techniques.feedback && touched.length > 0) {
        const top = topK(scores, touched, FEEDBACK_DOCS);
        const exclude = new Map([...terms, ...expansions]);
        touched.push(...index.accumulate(feedbackTerms(index, top, scores, exclude), scores, mask));
      }
      const useLatent = lsi?.similarities(terms, latent) ?? false;
      if (!useLatent) {
        fused.set(scores);
      } else {
        let best = 0;
        for (const doc of touched) best = Math.max(best, scores[doc] as number);
        const seen = new Set(touched);
        const latentTop = topLatent(latent, mask, LSI_CANDIDATES);
        for (const doc of latentTop) if (!seen.has(doc)) touched.push(doc);
        fused.fill(0);
        for (const doc of touched) {
          const lexical = best > 0 ? (scores[doc] as number) / best : 0;
          fused[doc] = lexical + LSI_WEIGHT * Math.max(0, latent[doc] as number);
        }
      }
      return topK(fused, touched, limit).map((doc) => {
        const lexical = relevance(base[doc] as number, scores[doc] as number, maxAttainable);
        const related = useLatent ? LSI_EVIDENCE * Math.max(0, latent[doc] as number) : 0;
        return {
          doc,
          chunk: chunks[doc] as ChunkRecord,
          raw: fused[doc] as number,
          score: Math.round(Math.max(lexical, related) * 1e4) / 1e4,
        };
      });
    },
  };
}

/** Each chunk's own heading as stemmed terms, and which chunks a query names the whole heading of. */
function subjectIndex(chunks: readonly ChunkRecord[]) {
  const headings = chunks.map((chunk) => [...new Set(analyze(chunk.headingPath.at(-1) ?? ''))]);
  const byTerm = new Map<string, number[]>();
  headings.forEach((terms, doc) => {
    for (const term of terms) {
      let docs = byTerm.get(term);
      if (!docs) byTerm.set(term, (docs = []));
      docs.push(doc);
    }
  });
  return {
    /** Chunks (that `mask` allows) whose heading terms all occur among the query's terms. */
    matches(terms: Map<string, number>, mask: Uint8Array | undefined): number[] {
      const counts = new Map<number, number>();
      for (const term of terms.keys()) {
        for (const doc of byTerm.get(term) ?? []) {
          if (mask && mask[doc] === 0) continue;
          counts.set(doc, (counts.get(doc) ?? 0) + 1);
        }
      }
      return [...counts].filter(([doc, n]) => n === headings[doc]?.length).map(([doc]) => doc);
    },
    /** The bonus base: the summed idf of a chunk's heading terms. */
    weight(doc: number, index: LexicalIndex): number {
      return (headings[doc] ?? []).reduce((sum, term) => sum + index.idf(term), 0);
    },
  };
}
