import { hasModel, packagePath, type CohortConfig } from '../config/index.js';
import { createModelProvider, embedTexts } from '../models/index.js';
import { openStore, type Store } from '../store/index.js';
import { createLogger, type Logger } from '../telemetry/index.js';
import { embedChunks, type EmbedFunction } from './ingest/embed-chunks.js';
import { ingest, type IngestProgress, type IngestSummary } from './ingest/ingest.js';
import { knowledgeStoreOptions } from './store-options.js';
import { createRetriever, type RetrieverOptions } from './retrievers/create-retriever.js';
import { createHybridRetriever } from './retrievers/hybrid-retriever.js';
import type { Retriever } from './retrievers/retriever.js';

/** The sample textbook shipped with cohort, ingested on first use. */
export const SAMPLE_BOOK_DIR = packagePath('examples', 'physical-ai-book') + '/';

/**
 * What every assistant reads from: the store (chunks, sessions, runs) and the retriever over it.
 * The book assistant, research runs and the MCP tools share one, so they search one index.
 */
export interface KnowledgeBase {
  config: CohortConfig;
  store: Store;
  /** Hybrid (lexical + vector) when an embedding model is configured, lexical otherwise. */
  retriever: Retriever;
  /** What the first-use ingestion did, when it ran. */
  ingested?: IngestSummary;
  /**
   * Loads (or builds) the lexical index now rather than on the first query: started before
   * routing, its store reads overlap the router's work.
   */
  warm?(): Promise<void>;
  /** Closes the store, unless it was passed in (then its owner closes it). */
  close(): Promise<void>;
}

/** Options of {@link openKnowledgeBase}. */
export interface OpenKnowledgeBaseOptions {
  config: CohortConfig;
  logger?: Logger;
  /** Called as the first-use ingestion of the sample book goes (a CLI draws a progress bar). */
  onIngestProgress?: (progress: IngestProgress) => void;
  /** An open store to use instead of opening the configured one; the caller keeps owning it. */
  store?: Store;
}

/**
 * The embedding model and function when `COHORT_EMBEDDING_MODEL` is set on a configured endpoint;
 * retrieval is then hybrid (lexical + vector), otherwise lexical.
 */
export function embeddingFor(
  config: CohortConfig,
): { model: string; embed: EmbedFunction } | undefined {
  const model = config.model.embeddingModel;
  if (!model || !hasModel(config)) return undefined;
  const provider = createModelProvider(config);
  return {
    model,
    embed: (texts, options) =>
      embedTexts(provider, texts, {
        ...(options?.signal ? { signal: options.signal } : {}),
        timeoutMs: config.model.timeoutSeconds * 1000,
        maxRetries: config.model.maxRetries,
      }),
  };
}

/**
 * The options of a knowledge base's lexical retriever, from the config: what its saved index is
 * keyed by (see `lexicalIndexKey`).
 */
export function knowledgeBaseRetrieverOptions(config: CohortConfig): RetrieverOptions {
  return { minScore: config.retrieval.minScore, limit: config.retrieval.limit };
}

/**
 * Opens the configured store (PGlite folder or `DATABASE_URL`), ingests the sample book (or
 * `COHORT_SAMPLE_BOOK`) when the store is empty, embeds new chunks when an embedding model is
 * configured, and builds the retriever from the `retrieval` settings.
 *
 * @example
 * const kb = await openKnowledgeBase({ config: loadConfig() });
 * const chunks = await kb.retriever.retrieve('ROS 2 topic', { limit: 3 });
 * await kb.close();
 */
export async function openKnowledgeBase(options: OpenKnowledgeBaseOptions): Promise<KnowledgeBase> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const embedding = embeddingFor(config);
  const store = options.store ?? (await openStore(config, knowledgeStoreOptions(config, logger)));
  try {
    let ingested: IngestSummary | undefined;
    if ((await store.chunks.count()) === 0) {
      ingested = await ingest(config.sampleBook ?? SAMPLE_BOOK_DIR, {
        store,
        standIn: true,
        ...(options.onIngestProgress ? { onProgress: options.onIngestProgress } : {}),
      });
    }
    const lexical = createRetriever(store, knowledgeBaseRetrieverOptions(config));
    let retriever: Retriever = lexical;
    if (embedding) {
      const embedded = await embedChunks({ store, model: embedding.model, embed: embedding.embed });
      if (embedded.error)
        logger.warn('embedding_failed', { cause: embedded.error, phase: 'ingestion' });
      retriever = createHybridRetriever({
        lexical,
        store,
        model: embedding.model,
        embed: embedding.embed,
        logger,
      });
    }
    return {
      config,
      store,
      retriever,
      ...(ingested ? { ingested } : {}),
      warm: async () => {
        await lexical.warm();
      },
      close: () => (options.store ? Promise.resolve() : store.close()),
    };
  } catch (error) {
    if (!options.store) await store.close();
    throw error;
  }
}
