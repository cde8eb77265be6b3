import type { ChunkRecord } from '../../src/schema/index.js';
import { boldLeadTerms } from '../../src/retrieval/rank/defined-terms.js';
import type { LexicalIndex } from '../../src/retrieval/rank/lexical-index.js';
import type { ConceptMap } from '../../src/retrieval/rank/query-expansion.js';
import { analyze, stem, tokenize } from '../../src/retrieval/rank/tokenizer.js';
import { STOPWORDS } from '../../src/retrieval/rank/stopwords.js';
import type { WordNet } from '../../src/retrieval/rank/wordnet.js';

/**
 * The features the reranker weighs, in the order of a feature vector. Each is generic (about the
 * match between a question and a section, never about one book's words) and scaled to about 0..1.
 */
export const RERANK_FEATURES = [
  /** The first-stage score (own terms plus expansions) over the best candidate's. */
  'total',
  /** The score of the query's own terms over the best candidate's own score. */
  'own',
  /** The first-stage rank, as 1 / (1 + rank). */
  'reciprocalRank',
  /** idf share of the query's own terms found in the section's own heading. */
  'headingOwn',
  /** Expansion weight × idf found in the section's own heading, over the query's own idf. */
  'headingExpansion',
  /** idf share of the query's own terms found in the document title or any heading above. */
  'pathOwn',
  /** idf share of the query's own terms found anywhere in the chunk. */
  'coverage',
  /** idf share of the query's concepts (a word or any of its expansions) found in the chunk. */
  'conceptCoverage',
  /** idf share of the query's own terms found in the chunk's bold-lead terms ("**Topics**: …"). */
  'boldOwn',
  /** Share of the first-stage score that came from expansions rather than the query's words. */
  'expansionShare',
  /** Share of the score that the single best-matching query term brought. */
  'dominance',
  /** The best other candidate of the same document, over the best candidate (topic support). */
  'documentSupport',
  /** The best other candidate of the same section, its parent or its children, over the best. */
  'familySupport',
  /** Chunk length, log-scaled. */
  'length',
  /** Heading depth over 4 (capped): deep sections are specific, shallow ones overviews. */
  'depth',
  /** 1 for an overview-like heading (Overview, Introduction, Summary, Conclusion). */
  'overview',
  /** The best line's (list item's or sentence's) idf share of query concepts, own or expanded. */
  'lineConcepts',
  /** The best line's idf share of the query's own terms. */
  'lineOwn',
  /** idf share of the section heading's words the query names, itself or by an expansion. */
  'headingExplained',
  /** The same, also counting a heading word whose WordNet relatives the query names. */
  'headingExplainedRelatives',
] as const;

/** The name of one reranking feature. */
export type RerankFeature = (typeof RERANK_FEATURES)[number];

/** What a chunk contributes to features, computed once per chunk on first use. */
interface ChunkProfile {
  heading: Set<string>;
  path: Set<string>;
  bold: Set<string>;
  family: string;
  parent: string;
  length: number;
  depth: number;
  overview: boolean;
  /** Stemmed terms of each line or sentence of the text. */
  lines: Set<string>[];
  /** The heading's words (stemmed), each with its WordNet relatives' stems. */
  headingWords: { stem: string; relatives: Set<string> }[];
}

const OVERVIEW = /^(?:overview|introduction|summary|conclusions?|key takeaways)\b/i;

function profileOf(chunk: ChunkRecord, wordnet: WordNet | undefined): ChunkProfile {
  const last = chunk.headingPath.at(-1) ?? chunk.title;
  const above = [chunk.title, ...chunk.headingPath.slice(0, -1)].join('\n');
  return {
    heading: new Set(analyze(last)),
    path: new Set(analyze(above)),
    bold: new Set(boldLeadTerms(chunk.text).flat()),
    family: `${chunk.source}\u0000${chunk.headingPath.join('\u0001')}`,
    parent: `${chunk.source}\u0000${chunk.headingPath.slice(0, -1).join('\u0001')}`,
    length: chunk.text.length,
    depth: chunk.headingPath.length,
    overview: OVERVIEW.test(last.trim()),
    headingWords: [...new Set(tokenize(last))]
      .filter((word) => !STOPWORDS.has(word) && /^[a-z]{3,}$/.test(word))
      .map((word) => ({
        stem: stem(word),
        relatives: new Set(
          (wordnet?.related(word) ?? []).filter((w) => !w.includes(' ')).map((w) => stem(w)),
        ),
      })),
    lines: chunk.text
      .split(/\n+|(?<=[.!?])\s+(?=[A-Z])/)
      .map((line) => new Set(analyze(line)))
      .filter((line) => line.size > 0),
  };
}

/** Per-chunk profiles, made on first use so building a ranker costs nothing more. */
export interface ChunkProfiles {
  get(doc: number): ChunkProfile;
}

/** Lazily profiles `chunks` for {@link rerankFeatures}. */
export function chunkProfiles(
  chunks: readonly ChunkRecord[],
  wordnet?: () => WordNet,
): ChunkProfiles {
  const profiles: (ChunkProfile | undefined)[] = new Array<ChunkProfile | undefined>(chunks.length);
  return {
    get(doc) {
      return (profiles[doc] ??= profileOf(chunks[doc] as ChunkRecord, wordnet?.()));
    },
  };
}

/** A first-stage candidate: chunk number, own-term score and total score. */
export interface RerankCandidate {
  doc: number;
  own: number;
  total: number;
}

/** The expanded query the features compare with: own terms, expansions and their concepts. */
export interface RerankQuery {
  terms: ReadonlyMap<string, number>;
  expansions: ReadonlyMap<string, number>;
  /** The query word (stemmed) each expansion stands for. */
  concepts: ConceptMap;
}

/** The first position whose chunk number is at least `target` (binary search). */
function lowerBound(docs: Int32Array, target: number): number {
  let low = 0;
  let high = docs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((docs[middle] as number) < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

type Postings = ReturnType<LexicalIndex['postings']>;

/** The saturated tf weight of a term in `doc` (0 when absent), from its postings. */
function weightIn(postings: Postings, doc: number): number {
  if (!postings) return 0;
  const at = lowerBound(postings.docs, doc);
  return at < postings.docs.length && postings.docs[at] === doc
    ? (postings.weights[at] as number)
    : 0;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

/**
 * One feature vector per candidate (in {@link RERANK_FEATURES} order), for candidates given best
 * first by the first stage. Costs a binary search per (query term, candidate) and nothing per
 * corpus chunk.
 *
 * @example
 * const rows = rerankFeatures(query, candidates, index, profiles);
 * const score = rows[0].reduce((sum, x, i) => sum + x * weights[i], 0);
 */
export function rerankFeatures(
  query: RerankQuery,
  candidates: readonly RerankCandidate[],
  index: LexicalIndex,
  profiles: ChunkProfiles,
): Float64Array[] {
  const own = [...query.terms].map(([term, weight]) => ({
    term,
    idf: weight * index.idf(term),
    postings: index.postings(term),
  }));
  const ownIdf = own.reduce((sum, t) => sum + t.idf, 0);
  const expansions = [...query.expansions].map(([term, weight]) => ({
    term,
    weight: weight * index.idf(term),
    concept: query.concepts.get(term),
    postings: index.postings(term),
  }));
  const maxTotal = Math.max(0, ...candidates.map((c) => c.total));
  const maxOwn = Math.max(0, ...candidates.map((c) => c.own));
  // Best and second-best candidate totals per document and per section family, for support.
  const best = (key: (p: ChunkProfile) => string) => {
    const top = new Map<string, [number, number]>();
    for (const c of candidates) {
      const k = key(profiles.get(c.doc));
      const [first, second] = top.get(k) ?? [0, 0];
      top.set(k, c.total > first ? [c.total, first] : [first, Math.max(second, c.total)]);
    }
    return top;
  };
  const documents = best((p) => p.family.slice(0, p.family.indexOf('\u0000')));
  const families = best((p) => p.family);
  const parents = best((p) => p.parent);
  const otherBest = (top: Map<string, [number, number]>, k: string, total: number) => {
    const [first, second] = top.get(k) ?? [0, 0];
    return first === total ? second : first;
  };

  return candidates.map((candidate, rank) => {
    const profile = profiles.get(candidate.doc);
    let headingOwn = 0;
    let pathOwn = 0;
    let coverage = 0;
    let boldOwn = 0;
    let dominance = 0;
    const covered = new Set<string>();
    for (const { term, idf, postings } of own) {
      const weight = weightIn(postings, candidate.doc);
      if (weight > 0) {
        coverage += idf;
        covered.add(term);
        dominance = Math.max(dominance, idf * weight);
      }
      if (profile.heading.has(term)) headingOwn += idf;
      if (profile.path.has(term)) pathOwn += idf;
      if (profile.bold.has(term)) boldOwn += idf;
    }
    let headingExpansion = 0;
    for (const { term, weight, concept, postings } of expansions) {
      if (profile.heading.has(term)) headingExpansion += weight;
      if (concept && !covered.has(concept) && weightIn(postings, candidate.doc) > 0)
        covered.add(concept);
    }
    let conceptCoverage = 0;
    for (const { term, idf } of own) if (covered.has(term)) conceptCoverage += idf;
    let lineConcepts = 0;
    let lineOwn = 0;
    for (const line of profile.lines) {
      let concepts = 0;
      let mine = 0;
      const seen = new Set<string>();
      for (const { term, idf } of own) {
        if (line.has(term)) {
          mine += idf;
          seen.add(term);
        }
      }
      for (const { term, concept } of expansions)
        if (concept && !seen.has(concept) && line.has(term)) seen.add(concept);
      for (const { term, idf } of own) if (seen.has(term)) concepts += idf;
      lineConcepts = Math.max(lineConcepts, concepts);
      lineOwn = Math.max(lineOwn, mine);
    }
    let headingIdf = 0;
    let explained = 0;
    let explainedRelatives = 0;
    for (const { stem: word, relatives } of profile.headingWords) {
      const idf = index.idf(word);
      headingIdf += idf;
      if (query.terms.has(word) || query.expansions.has(word)) {
        explained += idf;
        explainedRelatives += idf;
      } else {
        for (const term of query.terms.keys()) {
          if (relatives.has(term)) {
            explainedRelatives += idf;
            break;
          }
        }
      }
    }
    const key = profile.family;
    const family = Math.max(
      otherBest(families, key, candidate.total),
      otherBest(parents, profile.parent, candidate.total),
      (families.get(profile.parent) ?? [0])[0],
      (parents.get(key) ?? [0])[0],
    );
    const document = otherBest(documents, key.slice(0, key.indexOf('\u0000')), candidate.total);
    const row: Record<RerankFeature, number> = {
      total: ratio(candidate.total, maxTotal),
      own: ratio(candidate.own, maxOwn),
      reciprocalRank: 1 / (1 + rank),
      headingOwn: ratio(headingOwn, ownIdf),
      headingExpansion: Math.min(1, ratio(headingExpansion, ownIdf)),
      pathOwn: ratio(pathOwn, ownIdf),
      coverage: ratio(coverage, ownIdf),
      conceptCoverage: ratio(conceptCoverage, ownIdf),
      boldOwn: ratio(boldOwn, ownIdf),
      expansionShare: ratio(candidate.total - candidate.own, candidate.total),
      dominance: Math.min(1, ratio(dominance, candidate.own)),
      documentSupport: ratio(document, maxTotal),
      familySupport: ratio(family, maxTotal),
      length: Math.min(1, Math.log1p(profile.length) / Math.log(2000)),
      depth: Math.min(4, profile.depth) / 4,
      overview: profile.overview ? 1 : 0,
      lineConcepts: ratio(lineConcepts, ownIdf),
      lineOwn: ratio(lineOwn, ownIdf),
      headingExplained: ratio(explained, headingIdf),
      headingExplainedRelatives: ratio(explainedRelatives, headingIdf),
    };
    return Float64Array.from(RERANK_FEATURES, (name) => row[name]);
  });
}
