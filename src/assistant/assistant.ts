import { randomUUID } from 'node:crypto';
import type { AgentDependencies, AgentEvent, AgentRegistry, AgentRunner } from '../agents/index.js';
import { EXTRACTIVE_NOTICE, finalResponse } from '../agents/index.js';
import { CohortError, parseInput } from '../errors/index.js';
import {
  AgentContext,
  ChatRequest,
  type AgentInfoResponse,
  type AgentResponse,
  type ChatResponse,
  type Citation,
  type RouteResult,
} from '../schema/index.js';
import type { RagSkill } from '../agents/index.js';
import type { Router } from '../routing/index.js';
import type { ContextSkill } from './context-skill.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import { answerFailure } from './answer-failure.js';
import { resolveFollowUp } from './follow-up.js';
import { mergeResponses } from './merge-responses.js';

/** Merges several agents' answers into one (spec R5). */
export interface Synthesiser {
  synthesise(
    query: string,
    parts: AgentResponse[],
    dependencies: AgentDependencies,
  ): AsyncIterable<AgentEvent>;
}

/** What `askStream` yields: the route, answer text as it comes, the citations, the final response. */
export type AssistantEvent =
  | { type: 'route'; route: RouteResult }
  | { type: 'delta'; text: string }
  | { type: 'citations'; citations: Citation[] }
  | { type: 'done'; response: ChatResponse };

/** Everything an assistant is made of; all passed in. */
export interface AssistantOptions {
  registry: AgentRegistry;
  /** Only `route` is used: a test may pass a fake that decides without the book router. */
  router: Pick<Router, 'route'>;
  /** Awaited before each routing decision (keeps the router's book knowledge current). */
  beforeRoute?: () => Promise<void>;
  rag: RagSkill;
  context: ContextSkill;
  runner: AgentRunner;
  synthesiser?: Synthesiser;
  logger?: Logger;
  retrieval?: { limit?: number; minScore?: number };
  /** Multi-domain agents run one after another (spec R5) or all at once. */
  multiDomain?: 'sequential' | 'parallel';
  now?: () => number;
}

/** An assistant: route → agent(s) → (synthesis) → ChatResponse. */
export interface Assistant {
  readonly mode: AgentRunner['mode'];
  ask(input: unknown, options?: { signal?: AbortSignal }): Promise<ChatResponse>;
  askStream(input: unknown, options?: { signal?: AbortSignal }): AsyncIterable<AssistantEvent>;
  route(query: string): RouteResult;
  agents(): AgentInfoResponse;
}

const extractiveSynthesiser: Synthesiser = {
  async *synthesise(_query, parts) {
    const response = mergeResponses(parts, { notice: EXTRACTIVE_NOTICE });
    yield { type: 'delta', text: response.response };
    yield { type: 'response', response };
  },
};

/**
 * Builds an assistant from its parts. Input is validated (`ChatRequest`): an empty query, a query
 * over 2000 characters, a bad session id or an unknown agent is an `invalid_input`/`not_found`
 * error and nothing is saved.
 *
 * @example
 * const assistant = createAssistant({ registry, router, rag, context, runner: createExtractiveRunner() });
 * const reply = await assistant.ask({ query: 'What is a ROS 2 topic?' });
 */
export function createAssistant(options: AssistantOptions): Assistant {
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? Date.now;
  const synthesiser =
    options.synthesiser ??
    (options.runner.mode === 'extractive' ? extractiveSynthesiser : undefined);

  async function* askStream(
    input: unknown,
    streamOptions: { signal?: AbortSignal } = {},
  ): AsyncIterable<AssistantEvent> {
    const started = now();
    const request = parseInput(ChatRequest, input);
    const sessionId = request.sessionId ?? 'anonymous';
    const history = await options.context.getHistory(sessionId);
    // A follow-up with no subject of its own is routed and retrieved with the earlier subject.
    const followUp = resolveFollowUp(request.query, history);
    await options.beforeRoute?.();
    const route = options.router.route(
      followUp.query,
      request.agent ? { agent: request.agent } : undefined,
    );
    yield { type: 'route', route };

    const context = parseInput(AgentContext, {
      sessionId,
      query: request.query,
      ...(followUp.subject ? { standaloneQuery: followUp.query } : {}),
      chatHistory: history,
      ...(request.selectedText ? { selectedText: request.selectedText } : {}),
    });
    const deps: AgentDependencies = {
      rag: options.rag,
      logger: logger.child({ session: sessionId }),
      limit: options.retrieval?.limit ?? 5,
      minScore: options.retrieval?.minScore ?? 0.2,
      ...(streamOptions.signal ? { signal: streamOptions.signal } : {}),
    };

    const agentNames = [route.primaryAgent, ...(route.isMultiDomain ? route.secondaryAgents : [])];
    let response: AgentResponse | undefined;
    if (agentNames.length === 1 || !synthesiser) {
      const agent = options.registry.require(route.primaryAgent);
      for await (const event of options.runner.run(agent, context, deps)) {
        if (event.type === 'delta') yield { type: 'delta', text: event.text };
        if (event.type === 'response') response = event.response;
      }
    } else {
      const agents = agentNames.map((name) => options.registry.require(name));
      const run = (agent: (typeof agents)[number]) =>
        finalResponse(options.runner.run(agent, context, deps));
      const parts: AgentResponse[] = [];
      if ((request.multiDomain ?? options.multiDomain) === 'parallel') {
        parts.push(...(await Promise.all(agents.map(run))));
      } else {
        for (const agent of agents) parts.push(await run(agent));
      }
      for await (const event of synthesiser.synthesise(request.query, parts, deps)) {
        if (event.type === 'delta') yield { type: 'delta', text: event.text };
        if (event.type === 'response') response = event.response;
      }
    }
    if (!response)
      throw new CohortError('internal', `Agent "${route.primaryAgent}" gave no response.`);
    yield { type: 'citations', citations: response.sources };

    // A failed answer (model or search down) is reported as a failure and not kept: the session's
    // history holds only real turns, each question and its answer saved together.
    if (!answerFailure({ answer: response.response, metadata: response.metadata })) {
      await options.context.saveTurn(sessionId, [
        { role: 'user', content: request.query, timestamp: new Date(started) },
        {
          role: 'assistant',
          content: response.response,
          agentName: response.agentName,
          timestamp: new Date(),
        },
      ]);
    }
    const chat: ChatResponse = {
      answer: response.response,
      citations: response.sources,
      queryId: randomUUID(),
      sessionId,
      latencyMs: Math.max(0, Math.round(now() - started)),
      agentUsed: route.primaryAgent,
      routingConfidence: route.confidence,
      routingReason: route.routingReason,
      secondaryAgents: route.isMultiDomain ? route.secondaryAgents : [],
      mode: options.runner.mode,
      metadata: {
        ...response.metadata,
        agentsRun: agentNames,
        routingPhase: route.phase,
        ...(followUp.subject
          ? { followUp: { subject: followUp.subject, resolvedQuery: followUp.query } }
          : {}),
      },
    };
    yield { type: 'done', response: chat };
  }

  return {
    mode: options.runner.mode,
    askStream,
    async ask(input, askOptions) {
      let done: ChatResponse | undefined;
      for await (const event of askStream(input, askOptions))
        if (event.type === 'done') done = event.response;
      return done as ChatResponse;
    },
    route: (query) => options.router.route(parseInput(ChatRequest, { query }).query),
    agents: () => {
      const agents = options.registry.summaries();
      return { agents, total: agents.length };
    },
  };
}
