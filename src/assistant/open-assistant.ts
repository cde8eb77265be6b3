import { fileURLToPath } from 'node:url';
import type { AgentRunner } from '../agents/index.js';
import { hasModel, type CohortConfig } from '../config/index.js';
import { createModelProvider, embedTexts, type ModelProvider } from '../models/index.js';
import {
  createHybridRetriever,
  createRetriever,
  embedChunks,
  ingest,
  type EmbedFunction,
  type IngestProgress,
  type IngestSummary,
  type Retriever,
} from '../retrieval/index.js';
import { createBookRegistry, createKnowledgeRefresh, createRouter } from '../routing/index.js';
import { createRagSkill } from '../agents/index.js';
import { createContextSkill } from './context-skill.js';
import { openStore, type Store } from '../store/index.js';
import { createLogger, type Logger } from '../telemetry/index.js';
import { createAssistant, type Assistant, type Synthesiser } from './assistant.js';
import { createExtractiveRunner } from '../agents/runners/extractive-runner.js';
import { routeEverythingToDefault } from './routing-switch.js';

/** The sample textbook shipped with cohort, ingested on first use. */
export const SAMPLE_BOOK_DIR = fileURLToPath(
  new URL('../../examples/physical-ai-book/', import.meta.url),
);

/** An opened assistant with the parts a shell (CLI, server) needs. */
export interface OpenedAssistant {
  assistant: Assistant;
  store: Store;
  config: CohortConfig;
  router: ReturnType<typeof createRouter>;
  registry: ReturnType<typeof createBookRegistry>;
  /** The assistant's retriever (hybrid when embeddings are configured), for other runs to share. */
  retriever: Retriever;
  /** What the first-use ingestion did, when it ran. */
  ingested?: IngestSummary;
  /** A one-line description of the answering mode, for `cohort agents` and `/healthz`. */
  modeDescription: string;
  close(): Promise<void>;
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

/** The answering mode when no model is configured, and how to configure one. */
export const EXTRACTIVE_MODE_DESCRIPTION =
  'extractive (no model configured: answers quote the book; set OPENAI_API_KEY or OPENAI_BASE_URL for a model)';

/**
 * The answering mode in one line, as `cohort agents`, `cohort serve` and `/healthz` show it: the
 * model server and the models of both tiers, or extractive mode. Pass `provider` when one is
 * already made.
 */
export function describeMode(
  config: CohortConfig,
  provider: () => ModelProvider = () => createModelProvider(config),
): string {
  return hasModel(config) ? `model: ${provider().describe()}` : EXTRACTIVE_MODE_DESCRIPTION;
}

/** How the model-backed parts are made; absent when no model is configured. */
export interface ModelParts {
  runner: AgentRunner;
  synthesiser?: Synthesiser;
  description: string;
}

/**
 * Opens the configured store, ingests the sample book when the store is empty, loads the agents
 * and builds the assistant: model-backed when a model is configured (`modelParts`), extractive
 * otherwise.
 *
 * @example
 * const { assistant, close } = await openAssistant({ config: loadConfig() });
 * console.log((await assistant.ask({ query: 'What is a ROS 2 topic?' })).answer);
 * await close();
 */
export async function openAssistant(options: {
  config: CohortConfig;
  logger?: Logger;
  onIngestProgress?: (progress: IngestProgress) => void;
  modelParts?: (config: CohortConfig, logger: Logger) => ModelParts | Promise<ModelParts>;
  store?: Store;
}): Promise<OpenedAssistant> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const registry = createBookRegistry(config.agentDirs);
  const embedding = embeddingFor(config);
  const store = options.store ?? (await openStore(config, { vector: Boolean(embedding) }));
  try {
    let ingested: IngestSummary | undefined;
    if ((await store.chunks.count()) === 0) {
      ingested = await ingest(config.sampleBook ?? SAMPLE_BOOK_DIR, {
        store,
        ...(options.onIngestProgress ? { onProgress: options.onIngestProgress } : {}),
      });
    }
    // The router learns what the book covers now, and again whenever the store's chunks change.
    const router = createRouter(registry, config.routing);
    const refreshRouter = createKnowledgeRefresh(router, store);
    await refreshRouter();
    const lexical = createRetriever(store, {
      minScore: config.retrieval.minScore,
      limit: config.retrieval.limit,
    });
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
    const model =
      hasModel(config) && options.modelParts ? await options.modelParts(config, logger) : undefined;
    const assistant = createAssistant({
      registry,
      router: config.routing.enabled ? router : routeEverythingToDefault(registry, router),
      beforeRoute: refreshRouter,
      rag: createRagSkill(retriever),
      context: createContextSkill(store.sessions),
      runner: model?.runner ?? createExtractiveRunner(),
      ...(model?.synthesiser ? { synthesiser: model.synthesiser } : {}),
      logger,
      retrieval: { limit: config.retrieval.limit, minScore: config.retrieval.minScore },
    });
    return {
      assistant,
      store,
      config,
      router,
      registry,
      retriever,
      ...(ingested ? { ingested } : {}),
      modeDescription: model?.description ?? EXTRACTIVE_MODE_DESCRIPTION,
      close: () => (options.store ? Promise.resolve() : store.close()),
    };
  } catch (error) {
    if (!options.store) await store.close();
    throw error;
  }
}
