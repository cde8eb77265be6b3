import type { EmbeddingModelV3, LanguageModelV3 } from '@ai-sdk/provider';

/**
 * Models whose provider package loads on their first call. The AI SDK's OpenAI and
 * OpenAI-compatible providers (with the zod 3 copy they bring) are about a quarter of the code
 * `import('cohort')` would otherwise parse and run, and a process with no model configured, or one
 * that never calls its model, has no use for them. What is known before the call (provider name,
 * model id) is answered at once; what the provider decides (supported URLs, batch limits) is
 * answered as the promise the AI SDK's interface allows.
 */

/**
 * A chat model that loads with `load` on its first `doGenerate` or `doStream` (or when its
 * supported URLs are asked); `provider` must be the name the loaded model reports.
 *
 * @example
 * const model = lazyLanguageModel('openai.chat', 'gpt-4o', async () =>
 *   (await import('@ai-sdk/openai')).createOpenAI({ apiKey }).chat('gpt-4o'),
 * );
 */
export function lazyLanguageModel(
  provider: string,
  modelId: string,
  load: () => Promise<LanguageModelV3>,
): LanguageModelV3 {
  const model = onceAsync(load);
  return {
    specificationVersion: 'v3',
    provider,
    modelId,
    get supportedUrls() {
      return model().then((loaded) => loaded.supportedUrls);
    },
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
}

/**
 * An embedding model that loads with `load` on its first `doEmbed` (or when its limits are
 * asked); `provider` must be the name the loaded model reports.
 */
export function lazyEmbeddingModel(
  provider: string,
  modelId: string,
  load: () => Promise<EmbeddingModelV3>,
): EmbeddingModelV3 {
  const model = onceAsync(load);
  return {
    specificationVersion: 'v3',
    provider,
    modelId,
    get maxEmbeddingsPerCall() {
      return model().then((loaded) => loaded.maxEmbeddingsPerCall);
    },
    get supportsParallelCalls() {
      return model().then((loaded) => loaded.supportsParallelCalls);
    },
    doEmbed: async (options) => (await model()).doEmbed(options),
  };
}

/**
 * `load` run once, its promise shared; a failed load (a provider package that could not be
 * imported) is tried again by the next call instead of failing for ever.
 */
export function onceAsync<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
