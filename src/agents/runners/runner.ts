import {
  AgentResponse,
  type AgentContext,
  type AnswerMode,
  type RetrievedChunk,
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

/**
 * Runs `agent` on `context`: with its own `run` override when it has one (`defineAgent({ run })`,
 * the spec's BaseAgent.run), else with `runner`. An override's answer is checked as the data-model
 * spec's AgentResponse (a response that is not empty, a confidence from 0 to 1, and the name of
 * the agent that gave it); a wrong one is an `internal` error naming the agent.
 *
 * @example
 * for await (const event of runAgent(runner, agent, context, dependencies)) send(event);
 */
export async function* runAgent(
  runner: AgentRunner,
  agent: Agent,
  context: AgentContext,
  dependencies: AgentDependencies,
): AsyncIterable<AgentEvent> {
  if (!agent.run) {
    yield* runner.run(agent, context, dependencies);
    return;
  }
  const answered = AgentResponse.safeParse(await agent.run(context, dependencies));
  if (!answered.success) {
    const issue = answered.error.issues[0];
    const field = issue?.path.join('.');
    throw new CohortError(
      'internal',
      `Agent "${agent.name}" gave an invalid response: ${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}.`,
      { cause: answered.error },
    );
  }
  const response = answered.data;
  if (response.agentName !== agent.name)
    throw new CohortError(
      'internal',
      `Agent "${agent.name}" answered as "${response.agentName}": agent_name must name the agent that gave the response.`,
    );
  yield { type: 'delta', text: response.response };
  yield { type: 'response', response };
}
