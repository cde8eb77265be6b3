export {
  createModelProvider,
  resolveModelId,
  type ModelProvider,
  type ModelProviderOptions,
  type ModelRef,
  type FetchFunction,
} from './model-provider.js';
export {
  capResponseBytes,
  MAX_MODEL_OUTPUT_CHARS,
  MAX_MODEL_RESPONSE_BYTES,
} from './response-byte-cap.js';
export {
  callWithRetry,
  toServiceError,
  isRetryable,
  retryDelay,
  MAX_RETRY_DELAY_MS,
  type RetryPolicy,
} from './retry.js';
export {
  embedTexts,
  EmbeddingError,
  isEmbeddingError,
  DEFAULT_EMBEDDING_BATCH_SIZE,
  DEFAULT_EMBEDDING_TIMEOUT_MS,
  type EmbedTextsOptions,
} from './embed-texts.js';
export { reciprocalRankFusion, defaultFusionKey, DEFAULT_RRF_K, type FusedItem } from './fusion.js';
export type {
  LanguageModelV3 as LanguageModel,
  EmbeddingModelV3 as EmbeddingModel,
} from '@ai-sdk/provider';
