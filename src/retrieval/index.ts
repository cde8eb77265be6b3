export type { Retriever, RetrieveOptions } from './retriever.js';
export {
  createRetriever,
  createRetrieverFromChunks,
  DEFAULT_MIN_SCORE,
  DEFAULT_VERSION_CHECK_MS,
  type IndexedRetriever,
  type RetrieverOptions,
} from './create-retriever.js';
export {
  ingest,
  prepareDocument,
  parseFile,
  SUPPORTED_EXTENSIONS,
  type IngestOptions,
  type IngestProgress,
  type IngestSummary,
} from './ingest.js';
export { renderProgressBar } from './progress-bar.js';
export { parseMarkdown } from './markdown-parser.js';
export { parseRst } from './rst-parser.js';
export type { ParsedDocument, Section } from './parsed-document.js';
export { chunkDocument, MAX_CHUNK_CHARS, type DraftChunk } from './chunker.js';
export { tagDomain, documentDomain, DOMAIN_RULES } from './domain-tagger.js';
export {
  createRanker,
  ALL_TECHNIQUES,
  DEFAULT_TECHNIQUES,
  BM25_ONLY,
  type Techniques,
  type Ranker,
  type RankerOptions,
  type RankedChunk,
} from './ranker.js';
export { openWordNet, type WordNet, type WordRelations } from './wordnet.js';
export { type DocumentExpansionOptions } from './document-expansion.js';
export {
  buildLatentSemanticIndex,
  type LatentSemanticIndex,
  type DocumentTerms,
} from './latent-semantic-index.js';
export {
  evaluateRetrieval,
  isGoldHit,
  parseGold,
  type RetrievalReport,
  type QueryResult,
} from './evaluate-retrieval.js';
export { evaluateRetrievalOnCorpus, type CorpusRetrievalReport } from './evaluate-on-corpus.js';
export { loadRetrievalCases, parseRetrievalCases, RetrievalCase } from './retrieval-cases.js';
export { embedChunks, type EmbedFunction, type EmbedSummary } from './embed-chunks.js';
export { createHybridRetriever, EMBEDDING_FALLBACK_NOTICE } from './hybrid-retriever.js';
export { analyze, tokenize, stem } from './tokenizer.js';
