import type { Store } from '../../store/index.js';

/** Turns texts into vectors (bound to a configured embedding model). */
export type EmbedFunction = (
  texts: string[],
  options?: { signal?: AbortSignal },
) => Promise<number[][]>;

/** What {@link embedChunks} did. */
export interface EmbedSummary {
  embedded: number;
  total: number;
  /** Set when the embedding service failed: the chunks are kept, searched lexically only. */
  error?: string;
}

/**
 * Gives every chunk that has no vector for `model` one (heading path + text), in batches. An
 * embedding failure leaves the chunks without vectors and is reported, not thrown: retrieval
 * then stays lexical for them.
 *
 * @example
 * await embedChunks({ store, model: 'text-embedding-3-small', embed });
 */
export async function embedChunks(options: {
  store: Pick<Store, 'embeddings'>;
  model: string;
  embed: EmbedFunction;
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number }) => void;
}): Promise<EmbedSummary> {
  const missing = await options.store.embeddings.missing(options.model);
  const batchSize = options.batchSize ?? 64;
  let embedded = 0;
  for (let start = 0; start < missing.length; start += batchSize) {
    const batch = missing.slice(start, start + batchSize);
    try {
      const vectors = await options.embed(
        batch.map((chunk) => `${chunk.headingPath.join(' > ')}\n${chunk.text}`),
        options.signal ? { signal: options.signal } : {},
      );
      await options.store.embeddings.save(
        options.model,
        batch.map((chunk, i) => ({ id: chunk.id, vector: vectors[i] ?? [] })),
      );
      embedded += batch.length;
      options.onProgress?.({ done: embedded, total: missing.length });
    } catch (error) {
      return {
        embedded,
        total: missing.length,
        error: error instanceof Error ? error.message : String(error),
      };
    }
  }
  return { embedded, total: missing.length };
}
