export {
  evaluateRetrieval,
  isGoldHit,
  parseGold,
  type RetrievalReport,
  type QueryResult,
} from './evaluate-retrieval.js';
export { evaluateRetrievalOnCorpus, type CorpusRetrievalReport } from './evaluate-on-corpus.js';
export { loadRetrievalCases, parseRetrievalCases, RetrievalCase } from './retrieval-cases.js';
