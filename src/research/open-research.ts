import type { CohortConfig } from '../config/index.js';
import {
  openKnowledgeBase,
  type KnowledgeBase,
  type OpenKnowledgeBaseOptions,
} from '../retrieval/index.js';
import type { ResearchResult } from '../schema/index.js';
import { createLogger, enableTracing } from '../telemetry/index.js';
import { createResearchDependencies } from './create-research-dependencies.js';
import { connectResearchMcpTools } from './research-mcp-tools.js';
import type { ResearchDependencies } from './research-dependencies.js';
import type { ResearchEvent } from './research-events.js';
import { runResearch, streamResearch, type ResearchOptions } from './run-research.js';

/**
 * What a research run may set per call; everything else comes from the configuration. `newId`
 * names a new run (the server picks it, to record its owner before the run starts).
 */
export type ResearchRunOptions = Pick<
  ResearchOptions,
  'maxTasks' | 'resume' | 'signal' | 'onEvent' | 'newId'
>;

/** The research agent, wired from the configuration over a knowledge base. */
export interface OpenedResearch {
  config: CohortConfig;
  knowledgeBase: KnowledgeBase;
  /** The parts every run uses: retriever, searches, model tiers, sandbox, run store. */
  dependencies: ResearchDependencies;
  run(question: string, options?: ResearchRunOptions): Promise<ResearchResult>;
  stream(question: string, options?: ResearchRunOptions): AsyncGenerator<ResearchEvent>;
  close(): Promise<void>;
}

/** Options of {@link openResearch}. */
export interface OpenResearchOptions extends OpenKnowledgeBaseOptions {
  /** A knowledge base already open (the book assistant's); its owner closes it. */
  knowledgeBase?: KnowledgeBase;
  /** Replaces `fetch` for the web and paper searches (tests point them at local servers). */
  fetch?: typeof fetch;
  /** The parts every run uses, instead of those built from the configuration (scripted tests). */
  dependencies?: ResearchDependencies;
}

/**
 * Builds the research agent from the configuration alone: the knowledge base (store, first-use
 * ingestion, retriever) for internal retrieval and durable runs, the model's fast tier for analysis
 * and full tier for the lead (extractive findings with no model), Tavily, arXiv, Semantic Scholar
 * and the code sandbox as the `research` and `tools` settings say.
 *
 * @example
 * const research = await openResearch({ config: loadConfig() });
 * const { report } = await research.run('How do humanoid robots keep their balance?');
 * await research.close();
 */
export async function openResearch(options: OpenResearchOptions): Promise<OpenedResearch> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  // OpenTelemetry export starts here when an OTLP endpoint is configured (nothing loads otherwise).
  const tracing = await enableTracing(config.telemetry);
  const knowledgeBase = options.knowledgeBase ?? (await openKnowledgeBase({ ...options, logger }));
  // The configured MCP servers' tools the permission rules allow go to every subagent.
  const mcp = options.dependencies ? undefined : await connectResearchMcpTools(config, { logger });
  const built =
    options.dependencies ??
    createResearchDependencies(config, {
      store: knowledgeBase.store,
      retriever: knowledgeBase.retriever,
      logger,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  const dependencies = mcp && mcp.tools.length > 0 ? { ...built, tools: mcp.tools } : built;
  return {
    config,
    knowledgeBase,
    dependencies,
    run: (question, runOptions = {}) => runResearch(question, { ...dependencies, ...runOptions }),
    stream: (question, runOptions = {}) =>
      streamResearch(question, { ...dependencies, ...runOptions }),
    close: async () => {
      await mcp?.close();
      await tracing?.flush();
      if (!options.knowledgeBase) await knowledgeBase.close();
    },
  };
}
