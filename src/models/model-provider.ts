import type { EmbeddingModelV3, LanguageModelV3 } from '@ai-sdk/provider';
import type { CohortConfig } from '../config/index.js';
import { hasModel } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { lazyEmbeddingModel, lazyLanguageModel, onceAsync } from './lazy-model.js';
import { capResponseBytes, type FetchFunction } from './response-byte-cap.js';

export type { FetchFunction } from './response-byte-cap.js';

/** A tier name (`fast`, `full`) or a model id such as `gpt-4o` or `llama3.1:8b`. */
export type ModelRef = 'fast' | 'full' | (string & {});

/** One model interface over OpenAI and every OpenAI-compatible server (Ollama, vLLM, LM Studio). */
export interface ModelProvider {
  /** The chat model for a tier or a model id. */
  languageModel(tierOrId: ModelRef): LanguageModelV3;
  /** The embedding model, when `model.embeddingModel` (COHORT_EMBEDDING_MODEL) is set. */
  embeddingModel?(): EmbeddingModelV3;
  /** The model id a tier or id resolves to, without creating the model. */
  resolveModelId(tierOrId: ModelRef): string;
  /** Where the models come from, for logs and `cohort doctor`; never includes the key. */
  describe(): string;
}

/** Options of {@link createModelProvider}. */
export interface ModelProviderOptions {
  /** Used for every HTTP call (default: global fetch). */
  fetch?: FetchFunction;
  /** Most bytes read of one chat response or stream event (default {@link MAX_MODEL_RESPONSE_BYTES}). */
  maxResponseBytes?: number;
}

/**
 * Resolves an agent's `model` field: `full` is `model.tiers.full` or `model.name`; `fast` is
 * `model.tiers.fast`, else the full model (spec: Fast is an optimisation, Full always works);
 * anything else is taken as a model id.
 *
 * @example
 * resolveModelId(config, 'fast'); // 'gpt-4o-mini' unless COHORT_MODEL_FAST is set
 */
export function resolveModelId(config: CohortConfig, tierOrId: ModelRef): string {
  const full = config.model.tiers.full ?? config.model.name;
  if (tierOrId === 'full') return full;
  if (tierOrId === 'fast') return config.model.tiers.fast ?? full;
  const id = tierOrId.trim();
  if (!id) {
    throw new CohortError(
      'invalid_input',
      'A model must be "fast", "full" or a model id; got an empty string.',
      {
        field: 'model',
      },
    );
  }
  return id;
}

/**
 * Creates the model provider from config. A key alone talks to OpenAI; a base URL (with or without
 * a key, so Ollama and vLLM work) talks to that OpenAI-compatible server. Without either, asking
 * for a model is a `model_not_configured` error: the assistant runs in extractive mode instead.
 *
 * @example
 * const provider = createModelProvider(loadConfig());
 * const model = provider.languageModel(agent.model); // 'fast' | 'full' | model id
 */
export function createModelProvider(
  config: CohortConfig,
  options: ModelProviderOptions = {},
): ModelProvider {
  const { apiKey, baseUrl, embeddingModel } = config.model;
  const fetch = options.fetch;
  // Chat responses are read through the byte cap: a model that never ends a line or a body
  // would otherwise be buffered until memory runs out. Embedding responses are not (their size
  // grows with the batch and the vector dimensions).
  // The global fetch is looked up at each call, as the AI SDK does when given none.
  const chatFetch = capResponseBytes(
    (input, init) => (fetch ?? globalThis.fetch)(input, init),
    options.maxResponseBytes,
  );
  const cache = new Map<string, LanguageModelV3>();

  const backend = !hasModel(config)
    ? undefined
    : baseUrl
      ? compatibleBackend(baseUrl, apiKey, fetch, chatFetch)
      : openAIBackend(apiKey as string, fetch, chatFetch);

  const notConfigured = () =>
    new CohortError(
      'model_not_configured',
      'No model is configured: set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for an OpenAI-compatible server (Ollama, vLLM, LM Studio).',
    );

  const provider: ModelProvider = {
    languageModel(tierOrId) {
      if (!backend) throw notConfigured();
      const id = resolveModelId(config, tierOrId);
      let model = cache.get(id);
      if (!model) {
        model = backend.chat(id);
        cache.set(id, model);
      }
      return model;
    },
    resolveModelId: (tierOrId) => resolveModelId(config, tierOrId),
    describe() {
      if (!backend) return 'no model configured (extractive mode)';
      const full = resolveModelId(config, 'full');
      const fast = resolveModelId(config, 'fast');
      const embed = embeddingModel ? `, embeddings: ${embeddingModel}` : '';
      return `${backend.label} (full: ${full}, fast: ${fast}${embed})`;
    },
  };
  if (backend && embeddingModel) {
    let model: EmbeddingModelV3 | undefined;
    provider.embeddingModel = () => (model ??= backend.embedding(embeddingModel));
  }
  return provider;
}

/**
 * Where the models come from. Its provider package is imported on a model's first call
 * (lazy-model.ts), once per backend.
 */
interface Backend {
  label: string;
  chat(id: string): LanguageModelV3;
  embedding(id: string): EmbeddingModelV3;
}

function openAIBackend(
  apiKey: string,
  fetch: FetchFunction | undefined,
  chatFetch: FetchFunction,
): Backend {
  const providers = onceAsync(async () => {
    const { createOpenAI } = await import('@ai-sdk/openai');
    return {
      chat: createOpenAI({ apiKey, fetch: chatFetch }),
      embeddings: createOpenAI({ apiKey, ...(fetch ? { fetch } : {}) }),
    };
  });
  // Chat Completions, not Responses: the same wire format as every compatible server (spec §1).
  // The names are the ones @ai-sdk/openai's models report (model-provider.test.ts checks them).
  return {
    label: 'OpenAI',
    chat: (id) =>
      lazyLanguageModel('openai.chat', id, async () => (await providers()).chat.chat(id)),
    embedding: (id) =>
      lazyEmbeddingModel('openai.embedding', id, async () =>
        (await providers()).embeddings.embedding(id),
      ),
  };
}

/** The name a compatible server's models report their provider under, before the `.chat` part. */
const COMPATIBLE_NAME = 'openai-compatible';

function compatibleBackend(
  baseUrl: string,
  apiKey: string | undefined,
  fetch: FetchFunction | undefined,
  chatFetch: FetchFunction,
): Backend {
  const settings = {
    name: COMPATIBLE_NAME,
    baseURL: baseUrl,
    ...(apiKey ? { apiKey } : {}),
    // Ask for usage in the final stream chunk so streamed calls are counted too.
    includeUsage: true,
  };
  const providers = onceAsync(async () => {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    return {
      chat: createOpenAICompatible({ ...settings, fetch: chatFetch }),
      embeddings: createOpenAICompatible({ ...settings, ...(fetch ? { fetch } : {}) }),
    };
  });
  return {
    label: `OpenAI-compatible server at ${baseUrl}`,
    chat: (id) =>
      lazyLanguageModel(`${COMPATIBLE_NAME}.chat`, id, async () =>
        (await providers()).chat.chatModel(id),
      ),
    embedding: (id) =>
      lazyEmbeddingModel(`${COMPATIBLE_NAME}.embedding`, id, async () =>
        (await providers()).embeddings.embeddingModel(id),
      ),
  };
}
