import { CohortError, type CohortErrorCode } from '../errors/index.js';
import type { ModelProvider } from './model-provider.js';
import { callWithRetry, type RetryPolicy } from './retry.js';

/** Texts per embedding request unless the model allows fewer. */
export const DEFAULT_EMBEDDING_BATCH_SIZE = 64;
/** Time limit of one embedding request, in milliseconds. */
export const DEFAULT_EMBEDDING_TIMEOUT_MS = 30_000;

/**
 * An embedding call failed after its retries (spec §4, "Cohere API failure"). The code says why:
 * `timeout`, `model_unavailable`, `model_not_configured` or `aborted`.
 */
export class EmbeddingError extends CohortError {
  /** Index of the first text of the batch that failed. */
  readonly batchStart: number;

  constructor(
    code: CohortErrorCode,
    message: string,
    options: { cause?: unknown; batchStart?: number } = {},
  ) {
    super(code, message, { cause: options.cause });
    this.name = 'EmbeddingError';
    this.batchStart = options.batchStart ?? 0;
  }
}

/** True when `error` is an {@link EmbeddingError}. */
export function isEmbeddingError(error: unknown): error is EmbeddingError {
  return error instanceof EmbeddingError;
}

/** Options of {@link embedTexts}. */
export interface EmbedTextsOptions extends Partial<Omit<RetryPolicy, 'signal'>> {
  signal?: AbortSignal;
  /** Texts per request (default 64). */
  batchSize?: number;
}

/**
 * Embeds texts with the provider's embedding model (COHORT_EMBEDDING_MODEL on the same endpoint),
 * in batches, each with a timeout and up to 2 retries. Vectors come back in input order.
 *
 * @example
 * const vectors = await embedTexts(provider, chunks.map((c) => c.text), { signal });
 */
export async function embedTexts(
  provider: ModelProvider,
  texts: readonly string[],
  options: EmbedTextsOptions = {},
): Promise<number[][]> {
  if (texts.length === 0) return [];
  if (!provider.embeddingModel) {
    throw new EmbeddingError(
      'model_not_configured',
      'No embedding model is configured: set COHORT_EMBEDDING_MODEL (and OPENAI_API_KEY or OPENAI_BASE_URL).',
    );
  }
  const model = provider.embeddingModel();
  const limit = await model.maxEmbeddingsPerCall;
  const batchSize = Math.max(
    1,
    Math.min(options.batchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE, limit ?? Infinity),
  );
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? 2,
    timeoutMs: options.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS,
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  };
  // The AI SDK loads with the first model call: `import('cohort')` does not pay for it.
  const { embedMany } = await import('ai');
  const vectors: number[][] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    const values = texts.slice(start, start + batchSize);
    try {
      const result = await callWithRetry(
        'embedding call',
        // Retries are ours (timeouts count as retryable), so the SDK's own are off.
        (abortSignal) => embedMany({ model, values, maxRetries: 0, abortSignal }),
        policy,
      );
      if (result.embeddings.length !== values.length) {
        throw new CohortError(
          'model_unavailable',
          `The embedding server returned ${result.embeddings.length} vectors for ${values.length} texts.`,
        );
      }
      const length = vectors[0]?.length ?? result.embeddings[0]?.length ?? 0;
      for (const vector of result.embeddings) checkVector(vector, length);
      vectors.push(...result.embeddings);
    } catch (error) {
      const cause = error instanceof CohortError ? error : undefined;
      throw new EmbeddingError(
        cause?.code ?? 'model_unavailable',
        cause?.message ?? `The embedding call failed: ${String(error)}`,
        { cause: error, batchStart: start },
      );
    }
  }
  return vectors;
}

/**
 * A vector the store can keep: not empty, every number finite, and as long as the others. A server
 * that changes length mid-way (another model behind the same name) would otherwise leave vectors
 * no question can be compared with.
 */
function checkVector(vector: readonly number[], length: number): void {
  const problem =
    vector.length === 0
      ? 'an empty vector'
      : vector.length !== length
        ? `a vector of ${vector.length} numbers where the others have ${length}`
        : vector.every(Number.isFinite)
          ? undefined
          : 'a vector with a number that is not finite';
  if (problem) {
    throw new CohortError(
      'model_unavailable',
      `The embedding server returned ${problem}; check COHORT_EMBEDDING_MODEL and the server.`,
    );
  }
}
