import type { LanguageModelV3 } from '@ai-sdk/provider';
import { hasModel, type CohortConfig } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { createModelProvider } from '../models/index.js';
import { runCodingAgent, type CodingAgentOptions, type CodingAgentResult } from './coding-agent.js';

/** Why the coding assistant cannot start without a model, and how to configure one. */
export const CODING_NEEDS_MODEL =
  'cohort code needs a model: set OPENAI_API_KEY or OPENAI_BASE_URL (an OpenAI-compatible server such as Ollama, vLLM or LM Studio), optionally COHORT_MODEL / COHORT_MODEL_FAST.';

/** What one coding run may set; the configuration and the model come from {@link openCoding}. */
export type CodingRunOptions = Omit<CodingAgentOptions, 'config' | 'model'>;

/** The coding assistant, wired from the configuration. */
export interface OpenedCoding {
  config: CohortConfig;
  /** The model for a tier (`fast`, `full`) or a model id, on the configured provider. */
  model(ref: string): LanguageModelV3;
  run(options: CodingRunOptions): Promise<CodingAgentResult>;
}

/**
 * Builds the coding assistant (main agent, skills, subagents, workspace tools) from the
 * configuration: the model tiers come from the configured provider. It needs a model; with none
 * configured it throws a `model_not_configured` error that says how to configure one. `model`
 * replaces the provider (tests pass scripted models).
 *
 * @example
 * const coding = openCoding({ config: loadConfig() });
 * const result = await coding.run({ request: 'Explain src/index.ts', workspace: '.' });
 */
export function openCoding(options: {
  config: CohortConfig;
  model?: (ref: string) => LanguageModelV3;
}): OpenedCoding {
  const { config } = options;
  let model = options.model;
  if (!model) {
    if (!hasModel(config)) throw new CohortError('model_not_configured', CODING_NEEDS_MODEL);
    const provider = createModelProvider(config);
    model = (ref) => provider.languageModel(ref);
  }
  const chosen = model;
  return {
    config,
    model: chosen,
    run: (run) => runCodingAgent({ ...run, config, model: chosen }),
  };
}
