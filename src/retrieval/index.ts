export type { Retriever, RetrieveOptions } from './retrievers/retriever.js';
export {
  createRetriever,
  createRetrieverFromChunks,
  DEFAULT_MIN_SCORE,
  DEFAULT_VERSION_CHECK_MS,
  headingPathOf,
  LEXICAL_INDEX_CACHE,
  lexicalIndexKey,
  type IndexedRetriever,
  type RetrieverOptions,
  type RetrieverStore,
} from './retrievers/create-retriever.js';
export {
  ingest,
  findIngestEntries,
  prepareDocument,
  parseFile,
  SUPPORTED_EXTENSIONS,
  DEFAULT_MAX_FILE_BYTES,
  MAX_SECTION_CHARS,
  type IngestEntries,
  type IngestOptions,
  type SkippedFile,
  type SkipKind,
  type TruncatedFile,
  type IngestProgress,
  type IngestSummary,
} from './ingest/ingest.js';
export { describeSkipped } from './ingest/skipped-file.js';
export { decodeText, type DecodedText } from './ingest/decode-text.js';
export { renderProgressBar } from './ingest/progress-bar.js';
export { parseMarkdown } from './ingest/markdown-parser.js';
export { parseRst } from './ingest/rst-parser.js';
export type { ParsedDocument, Section } from './ingest/parsed-document.js';
export { chunkDocument, MAX_CHUNK_CHARS, type DraftChunk } from './ingest/chunker.js';
export { isTableRule } from './ingest/markdown-table.js';
export { tagDomain, documentDomain, DOMAIN_RULES } from './ingest/domain-tagger.js';
export {
  createRanker,
  ALL_TECHNIQUES,
  DEFAULT_TECHNIQUES,
  BM25_ONLY,
  type Techniques,
  type Ranker,
  type RankerOptions,
  type RankedChunk,
} from './rank/ranker.js';
export {
  openWordNet,
  openWordNetLexicon,
  defaultWordNetDir,
  inflectionBaseForms,
  type VerbSense,
  type WordNet,
  type WordNetLexicon,
  type WordRelations,
} from './rank/wordnet.js';
export { embedChunks, type EmbedFunction, type EmbedSummary } from './ingest/embed-chunks.js';
export { createHybridRetriever, EMBEDDING_FALLBACK_NOTICE } from './retrievers/hybrid-retriever.js';
export { analyze, tokenize, stem } from './rank/tokenizer.js';
export { createFuzzyLexicon, MIN_FUZZY_LENGTH, type FuzzyLexicon } from './rank/fuzzy-lexicon.js';
export {
  createQueryVocabulary,
  oneEditApart,
  type QueryVocabulary,
  type RepairedQuery,
  type VocabularyRepair,
} from './rank/query-vocabulary.js';
export { QUERY_STOPWORDS, STOPWORDS, withoutAskingManner } from './rank/stopwords.js';
export { socialMessage, withoutSocialOpener, type SocialKind } from './rank/social-message.js';
export { nameRunsWritten, namesWritten } from './rank/names-written.js';
export { measuresAsked, measureTerms } from './rank/measure-words.js';
export { asksAboutTheCourse, listsTopicsOnly } from './rank/course-meta.js';
export { asksAboutReleases, isReleaseNotes, namesReleasePage } from './rank/release-notes.js';
export { comparedSides } from './rank/compared-sides.js';
export { asksForCode, asksHowTo } from './rank/code-share.js';
export {
  askingAboutTheWork,
  asksOnlyAboutTheWork,
  isFrontMatter,
  isWorkQuestionStem,
  workQuestionTerms,
} from './rank/front-matter.js';
export {
  namesTheWork,
  WORK_NAMES,
  workNameAt,
  workNamePattern,
  withoutWorkNamedAfterThis,
  withoutTheWork,
  workNamedIn,
  taughtAsCourse,
  theClassAsTheWork,
  withoutCoverageAsk,
} from './rank/work-names.js';
export { asksLeaveToUseTheWork, isLicencePage } from './rank/licence-page.js';
export {
  asksWhomTheWorkThanks,
  creditReadAsThanks,
  isAcknowledgments,
  THANKS_TERMS,
} from './rank/acknowledgments.js';
export {
  openKnowledgeBase,
  embeddingFor,
  knowledgeBaseRetrieverOptions,
  SAMPLE_BOOK_DIR,
  type KnowledgeBase,
  type OpenKnowledgeBaseOptions,
} from './open-knowledge-base.js';
