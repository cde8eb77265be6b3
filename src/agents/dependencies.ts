import type { Logger, TraceSpan } from '../telemetry/index.js';
import type { RagSkill } from './rag-skill.js';

/** What an agent run is given: its skills and, when configured, a model. Passed in, never global. */
export interface AgentDependencies {
  rag: RagSkill;
  logger: Logger;
  /** Passages below this normalised score count as not relevant. */
  minScore: number;
  /** How many passages to retrieve. */
  limit: number;
  signal?: AbortSignal;
  /** The agent run's span: retrieval, model and tool spans nest under it. */
  span?: TraceSpan;
}
