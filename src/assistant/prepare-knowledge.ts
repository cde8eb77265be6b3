import type { CohortConfig } from '../config/index.js';
import {
  knowledgeBaseRetrieverOptions,
  LEXICAL_INDEX_CACHE,
  lexicalIndexKey,
  openKnowledgeBase,
  type IngestSummary,
  type OpenKnowledgeBaseOptions,
} from '../retrieval/index.js';
import {
  createBookRegistry,
  createKnowledgeRefresh,
  createRouter,
  TRAINED_ROUTER_CACHE,
  trainedRouterFingerprint,
  trainedRouterKey,
} from '../routing/index.js';
import type { Store } from '../store/index.js';

/** The router {@link prepareKnowledge} trains and the fingerprint it is saved under. */
export interface KnowledgeRouter {
  router: ReturnType<typeof createRouter>;
  fingerprint: string;
}

/**
 * The router {@link prepareKnowledge} trains, as `openAssistant` builds it: from the
 * configuration alone (the agents' files, the arbiter), so it can be built before the store is
 * ready. `cohort ingest` builds it while the engine writes the chunks.
 *
 * @example
 * const prepared = knowledgeRouter(config);
 */
export function knowledgeRouter(config: CohortConfig): KnowledgeRouter {
  // The same router, key and refresh as `openAssistant`'s, so what is saved is what it loads.
  const registry = createBookRegistry(config.agentDirs);
  return {
    router: createRouter(registry, config.routing),
    fingerprint: trainedRouterFingerprint(registry.all(), config.routing),
  };
}

/**
 * Whether the store's build cache holds what {@link prepareKnowledge} would build from the chunks
 * it holds now: the router trained on them and their lexical index, each saved under the key of
 * their content hash, the config and the code that builds it. Asked without building the router
 * (0.3 s) or reading a chunk: `cohort ingest` of a folder where nothing changed then builds and
 * loads nothing. False when an embedding model is configured (chunks may want their vectors).
 *
 * @example
 * if (!(await knowledgeIsPrepared(config, store))) await prepareKnowledge({ config, store });
 */
export async function knowledgeIsPrepared(
  config: CohortConfig,
  store: Pick<Store, 'chunks' | 'cache'>,
): Promise<boolean> {
  if (config.model.embeddingModel || store.cache.saves === false) return false;
  const contentHash = await store.chunks.contentHash();
  const registry = createBookRegistry(config.agentDirs);
  const fingerprint = trainedRouterFingerprint(registry.all(), config.routing);
  const saved = await Promise.all([
    store.cache.has(TRAINED_ROUTER_CACHE, trainedRouterKey(contentHash, fingerprint)),
    store.cache.has(
      LEXICAL_INDEX_CACHE,
      lexicalIndexKey(contentHash, knowledgeBaseRetrieverOptions(config)),
    ),
  ]);
  return saved.every(Boolean);
}

/**
 * Does now, and saves in the store, what {@link openAssistant} would otherwise build in the
 * process that answers: the first-use ingestion of the sample book (when the store is empty),
 * the chunks' embeddings (when an embedding model is configured), the router trained on the
 * chunks and the lexical index; then closes the store, unless it was passed in. A later
 * `openAssistant` on the same store and config loads the router and the index instead of
 * building them. `cohort serve` runs this in a child process on a new data folder, so the
 * memory that training and building leave behind goes with that process (see cli/first-start.ts).
 * `router`: the {@link knowledgeRouter} of the same config, when the caller built it already.
 *
 * @example
 * const ingested = await prepareKnowledge({ config: loadConfig() });
 */
export async function prepareKnowledge(
  options: OpenKnowledgeBaseOptions & { router?: KnowledgeRouter },
): Promise<IngestSummary | undefined> {
  const { config } = options;
  const { router, fingerprint } = options.router ?? knowledgeRouter(config);
  const knowledgeBase = await openKnowledgeBase(options);
  try {
    // Both at once: each is this thread's work (training, building) and then the engine's
    // (saving the value), so one is built while the other is saved. They read the chunks once.
    const [learnt] = await Promise.allSettled([
      createKnowledgeRefresh(router, knowledgeBase.store, { fingerprint })(),
      // As `cohort serve` does in-process: an index that cannot be built now is built by the
      // serving process (and its first query reports why when it cannot be built there either).
      knowledgeBase.warm?.().catch(() => undefined),
    ]);
    if (learnt.status === 'rejected') throw learnt.reason;
    return knowledgeBase.ingested;
  } finally {
    await knowledgeBase.close();
  }
}
