import type {
  AgentContext,
  AgentResponse,
  AnswerMode,
  RetrievedChunk,
} from '../../schema/index.js';
import { CohortError } from '../../errors/index.js';
import type { Agent } from '../define-agent.js';
import type { AgentDependencies } from '../dependencies.js';

/** What an agent run reports as it goes; the last event is always `response`. */
export type AgentEvent =
  | { type: 'delta'; text: string }
  | { type: 'retrieval'; query: string; chunks: RetrievedChunk[] }
  | { type: 'response'; response: AgentResponse };

/**
 * Runs one agent on one query. The extractive runner quotes passages; the model runner drives the
 * tool-calling loop. Both stream the same events so `ask` and `askStream` share one path.
 */
export interface AgentRunner {
  readonly mode: AnswerMode;
  run(
    agent: Agent,
    context: AgentContext,
    dependencies: AgentDependencies,
  ): AsyncIterable<AgentEvent>;
}

/** Drains a run to its final response. */
export async function finalResponse(events: AsyncIterable<AgentEvent>): Promise<AgentResponse> {
  let last: AgentResponse | undefined;
  for await (const event of events) if (event.type === 'response') last = event.response;
  if (!last) throw new CohortError('internal', 'The agent run ended without a response.');
  return last;
}
