import {
  createExtractiveRunner,
  createRagSkill,
  defineTool,
  type LoopTool,
} from '../agents/index.js';
import { hasModel, type CohortConfig } from '../config/index.js';
import {
  openKnowledgeBase,
  type IngestSummary,
  type KnowledgeBase,
  type OpenKnowledgeBaseOptions,
  type Retriever,
} from '../retrieval/index.js';
import {
  createBookRegistry,
  createKnowledgeRefresh,
  createRouter,
  trainedRouterFingerprint,
} from '../routing/index.js';
import type { Store } from '../store/index.js';
import type { McpClientPool } from '../tools/mcp/index.js';
import { createLogger, enableTracing, type Logger } from '../telemetry/index.js';
import { createAssistant, type Assistant } from './assistant.js';
import { createContextSkill } from './context-skill.js';
import { EXTRACTIVE_MODE_DESCRIPTION, modelPartsFor, type ModelParts } from './model-parts.js';
import { routeEverythingToDefault } from './routing-switch.js';

/** An opened assistant with the parts a shell (CLI, server) needs. */
export interface OpenedAssistant {
  assistant: Assistant;
  /** The store and retriever the assistant reads; research runs and MCP tools share them. */
  knowledgeBase: KnowledgeBase;
  store: Store;
  config: CohortConfig;
  router: ReturnType<typeof createRouter>;
  registry: ReturnType<typeof createBookRegistry>;
  /** The assistant's retriever (hybrid when embeddings are configured), for other runs to share. */
  retriever: Retriever;
  /** What the first-use ingestion did, when it ran. */
  ingested?: IngestSummary;
  /** The connections to the configured MCP servers (model mode with `mcpServers` only). */
  mcp?: McpClientPool;
  /** A one-line description of the answering mode, for `cohort agents` and `/healthz`. */
  modeDescription: string;
  close(): Promise<void>;
}

/** Options of {@link openAssistant}. */
export interface OpenAssistantOptions extends OpenKnowledgeBaseOptions {
  /** A knowledge base already open (shared with research runs); its owner closes it. */
  knowledgeBase?: KnowledgeBase;
  /**
   * Replaces how the model-backed parts are made when a model is configured (tests, experiments).
   * By default they are {@link modelPartsFor}: the configured provider's runner and synthesiser.
   */
  modelParts?: (
    config: CohortConfig,
    logger: Logger,
    extras?: { tools: LoopTool[] },
  ) => ModelParts | Promise<ModelParts>;
}

/**
 * Builds the book assistant from the configuration alone: the knowledge base (store, first-use
 * ingestion, retriever), the agents, the router (which learns what the book covers) and the
 * answering parts: the model runner and synthesiser when a model is configured (`OPENAI_BASE_URL`
 * or `OPENAI_API_KEY`), the extractive runner otherwise.
 *
 * @example
 * const { assistant, close } = await openAssistant({ config: loadConfig() });
 * console.log((await assistant.ask({ query: 'What is a ROS 2 topic?' })).answer);
 * await close();
 */
export async function openAssistant(options: OpenAssistantOptions): Promise<OpenedAssistant> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  // OpenTelemetry export starts here when an OTLP endpoint is configured (nothing loads otherwise).
  const tracing = await enableTracing(config.telemetry);
  const registry = createBookRegistry(config.agentDirs);
  const knowledgeBase = options.knowledgeBase ?? (await openKnowledgeBase({ ...options, logger }));
  const { store, retriever } = knowledgeBase;
  let mcpPool: McpClientPool | undefined;
  try {
    // The router learns what the book covers now (or loads what it learnt from these chunks
    // before), and again whenever the store's chunks change.
    const router = createRouter(registry, config.routing);
    const refreshRouter = createKnowledgeRefresh(router, store, {
      fingerprint: trainedRouterFingerprint(registry.all(), config.routing),
    });
    await refreshRouter();
    // MCP servers' tools go to the model-backed agents; the client loads only when some are set.
    let tools: LoopTool[] = [];
    if (hasModel(config) && Object.keys(config.mcpServers).length > 0) {
      const mcp = await import('../tools/mcp/index.js');
      mcpPool = await mcp.connectMcpServers(config.mcpServers, { logger });
      tools = mcp
        .mcpTools(mcpPool, { maxOutputChars: config.tools.maxOutputChars })
        .map((tool) => defineTool(tool));
    }
    const model = hasModel(config)
      ? await (options.modelParts ?? modelPartsFor)(config, logger, { tools })
      : undefined;
    const assistant = createAssistant({
      registry,
      router: config.routing.enabled ? router : routeEverythingToDefault(registry, router),
      beforeRoute: refreshRouter,
      rag: createRagSkill(retriever, config.sourceUrl ? { sourceUrl: config.sourceUrl } : {}),
      context: createContextSkill(store.sessions),
      runner: model?.runner ?? createExtractiveRunner(),
      ...(model?.synthesiser ? { synthesiser: model.synthesiser } : {}),
      logger,
      retrieval: { limit: config.retrieval.limit, minScore: config.retrieval.minScore },
      multiDomain: config.routing.multiDomain,
      traces: store.runs,
    });
    return {
      assistant,
      knowledgeBase,
      store,
      config,
      router,
      registry,
      retriever,
      ...(knowledgeBase.ingested ? { ingested: knowledgeBase.ingested } : {}),
      modeDescription: model?.description ?? EXTRACTIVE_MODE_DESCRIPTION,
      ...(mcpPool ? { mcp: mcpPool } : {}),
      close: async () => {
        await mcpPool?.close();
        await tracing?.flush();
        if (!options.knowledgeBase) await knowledgeBase.close();
      },
    };
  } catch (error) {
    await mcpPool?.close();
    if (!options.knowledgeBase) await knowledgeBase.close();
    throw error;
  }
}
