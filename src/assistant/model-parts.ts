import { createModelRunner, type AgentRunner, type LoopTool } from '../agents/index.js';
import { hasModel, type CohortConfig } from '../config/index.js';
import { createModelProvider, type ModelProvider } from '../models/index.js';
import type { Logger } from '../telemetry/index.js';
import type { Synthesiser } from './assistant.js';
import { createModelSynthesiser } from './model-synthesis.js';

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

/** The model-backed parts of an assistant; made only when a model is configured. */
export interface ModelParts {
  runner: AgentRunner;
  synthesiser?: Synthesiser;
  description: string;
}

/**
 * The model-backed parts of the book assistant (the tool-calling runner, the multi-domain
 * synthesiser and the mode line) on the configured provider. `openAssistant` calls it whenever
 * `hasModel(config)`, with the configured MCP servers' tools in `extras.tools`.
 *
 * @example
 * const parts = modelPartsFor(loadConfig({ env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } }), logger);
 */
export function modelPartsFor(
  config: CohortConfig,
  logger: Logger,
  extras: { tools?: LoopTool[] } = {},
): ModelParts {
  const provider = createModelProvider(config);
  return {
    runner: createModelRunner({
      provider,
      config,
      logger,
      ...(extras.tools ? { tools: extras.tools } : {}),
    }),
    synthesiser: createModelSynthesiser({ provider, config, logger }),
    description: describeMode(config, () => provider),
  };
}
