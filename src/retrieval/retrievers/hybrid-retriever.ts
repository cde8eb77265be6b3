import { EmbeddingError, isEmbeddingError, reciprocalRankFusion } from '../../models/index.js';
import type { RetrievedChunk } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import { silentLogger, type Logger } from '../../telemetry/index.js';
import { DEFAULT_LIMIT, toRetrievedChunk } from './create-retriever.js';
import type { EmbedFunction } from '../ingest/embed-chunks.js';
import type { RetrieveOptions, Retriever } from './retriever.js';

/** Said in a passage's metadata when the embedding service failed and search stayed lexical. */
export const EMBEDDING_FALLBACK_NOTICE =
  'The embedding service is unavailable, so this search used keywords only.';

/**
 * Lexical + vector retrieval fused by reciprocal rank fusion. The lexical retriever keeps the
 * domain filter and its whole-book fallback; the vector search follows the same domain decision.
 * When embedding the query fails, the lexical results are returned with `metadata.notice`; when
 * there are none, the {@link EmbeddingError} is thrown (spec §4: the agent answers "I'm unable to
 * process your question right now").
 *
 * @example
 * const retriever = createHybridRetriever({ lexical, store, model: 'nomic-embed-text', embed });
 */
export function createHybridRetriever(options: {
  lexical: Retriever;
  store: Pick<Store, 'embeddings'>;
  model: string;
  embed: EmbedFunction;
  logger?: Logger;
  /** Candidates taken from each list before fusion, as a multiple of the limit. */
  depth?: number;
}): Retriever {
  const logger = options.logger ?? silentLogger;
  const depth = options.depth ?? 2;
  // The vector side reads the question as typed; the keyword side repairs it as it ranks.
  const readQuery = options.lexical.readQuery?.bind(options.lexical);
  const readQueryNow = options.lexical.readQueryNow?.bind(options.lexical);
  const workName = options.lexical.workName?.bind(options.lexical);
  const workIsCourse = options.lexical.workIsCourse?.bind(options.lexical);
  const nextPart = options.lexical.nextPart?.bind(options.lexical);
  return {
    ...(readQuery ? { readQuery } : {}),
    ...(readQueryNow ? { readQueryNow } : {}),
    ...(workName ? { workName } : {}),
    ...(workIsCourse ? { workIsCourse } : {}),
    ...(nextPart ? { nextPart } : {}),
    async retrieve(
      query: string,
      retrieveOptions: RetrieveOptions = {},
    ): Promise<RetrievedChunk[]> {
      const limit = retrieveOptions.limit ?? DEFAULT_LIMIT;
      // A zero-score keyword hit is no evidence; only real matches take part in the fusion.
      const lexical = (
        await options.lexical.retrieve(query, { ...retrieveOptions, limit: limit * depth })
      ).filter((chunk) => chunk.score > 0);
      let queryVector: number[] | undefined;
      try {
        [queryVector] = await options.embed(
          [query],
          retrieveOptions.signal ? { signal: retrieveOptions.signal } : {},
        );
      } catch (error) {
        logger.warn('embedding_failed', {
          cause: error instanceof Error ? error.message : String(error),
        });
        // Spec §4 ("embedding API failure"): with no keyword match to fall back on, the question
        // cannot be answered, and the agent says so with the spec's message.
        if (lexical.length === 0 || retrieveOptions.signal?.aborted) {
          throw isEmbeddingError(error)
            ? error
            : new EmbeddingError(
                'model_unavailable',
                `The embedding call failed: ${String(error)}`,
                {
                  cause: error,
                },
              );
        }
        return lexical.slice(0, limit).map((chunk) => ({
          ...chunk,
          metadata: { ...chunk.metadata, notice: EMBEDDING_FALLBACK_NOTICE },
        }));
      }
      if (!queryVector) return lexical.slice(0, limit);
      const fellBack = lexical.some((chunk) => chunk.metadata.domainFallback === true);
      // The lexical side left the domain (fallback, or a clearly better passage elsewhere): so does this.
      const leftDomain =
        fellBack || lexical.some((chunk) => chunk.domain !== retrieveOptions.domain);
      const domain = leftDomain ? undefined : retrieveOptions.domain;
      const nearest = await options.store.embeddings.nearest(options.model, queryVector, {
        limit: limit * depth,
        ...(domain ? { domain } : {}),
      });
      const vector = nearest.map(({ chunk, similarity }) =>
        toRetrievedChunk(chunk, Math.max(0, Math.min(1, similarity)), fellBack),
      );
      const byId = new Map<string, { lexical?: RetrievedChunk; vector?: RetrievedChunk }>();
      for (const chunk of lexical) byId.set(chunk.id ?? '', { lexical: chunk });
      for (const chunk of vector)
        byId.set(chunk.id ?? '', { ...byId.get(chunk.id ?? ''), vector: chunk });
      const fused = reciprocalRankFusion(
        [lexical, vector],
        undefined,
        (chunk) => chunk.id ?? chunk.text,
      );
      return fused.slice(0, limit).map(({ item }) => {
        const both = byId.get(item.id ?? '');
        // The passage's score is its better evidence: a strong keyword match or a close vector.
        const score = Math.max(both?.lexical?.score ?? 0, both?.vector?.score ?? 0);
        return {
          ...(both?.lexical ?? item),
          score,
          metadata: {
            ...item.metadata,
            retrieval:
              both?.lexical && both.vector ? 'hybrid' : both?.vector ? 'vector' : 'lexical',
          },
        };
      });
    },
  };
}
