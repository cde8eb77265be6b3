export {
  createRouter,
  DEFAULT_MIN_CONFIDENCE,
  type Router,
  type RouterOptions,
  type RouteOptions,
  type RouteExplanation,
} from './router.js';
export {
  canHandle,
  compileKeywords,
  scoreKeywords,
  type CompiledKeywords,
  type KeywordMatch,
} from './keyword-scorer.js';
export {
  trainIntentClassifier,
  type IntentClassifier,
  type Classification,
  type ClassifierStats,
  type TrainingSample,
} from './intent-classifier.js';
export { detectIntentCues, INTENT_CUES, type IntentCue, type IntentCues } from './intent-cues.js';
export {
  buildRoutingModel,
  type RoutingModel,
  type AnalyzedQuery,
  type KeywordEvidence,
} from './routing-model.js';
export { analyzeText, type QueryText } from './query-text.js';
export { DEFAULT_FEATURE_WEIGHTS, type FeatureWeights } from './query-features.js';
export { createBookRegistry, defaultAgentsDir } from './book-registry.js';
export {
  ECE_BINS,
  evaluateRouting,
  loadRoutingCases,
  parseRoutingCases,
  RoutingCase,
  type RoutingEvaluation,
  type RoutingMiss,
  type AgentRoutingScore,
} from './evaluate-routing.js';
export {
  createKnowledgeRefresh,
  learnBookKnowledge,
  loadBookKnowledge,
  KNOWLEDGE_CHECK_MS,
  trainedRouterKey,
  type KnowledgeChunk,
  type KnowledgeRefreshOptions,
  type KnowledgeSource,
  type LearningRouter,
} from './book-knowledge.js';
export {
  decodeTrainedRouter,
  encodeTrainedRouter,
  trainedRouterFingerprint,
  TRAINED_ROUTER_CACHE,
  type TrainedRouter,
} from './trained-router-cache.js';
export {
  englishDictionary,
  openEnglishDictionary,
  type EnglishDictionary,
} from './english-dictionary.js';
export {
  compileKnowledge,
  isArithmetic,
  DEFAULT_MIN_GROUNDING,
  type Grounding,
} from './subject-grounding.js';
