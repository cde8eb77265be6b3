import { randomUUID } from 'node:crypto';
import type { AgentDependencies, AgentEvent, AgentRegistry, AgentRunner } from '../agents/index.js';
import { agentTitle, extractiveNotice, finalResponse, runAgent } from '../agents/index.js';
import { CohortError, parseInput } from '../errors/index.js';
import {
  AgentContext,
  ChatRequest,
  plainQuery,
  type AgentInfoResponse,
  type AgentResponse,
  type ChatResponse,
  type Citation,
  type RouteResult,
} from '../schema/index.js';
import type { RagSkill } from '../agents/index.js';
import type { Router } from '../routing/index.js';
import type { RepairedQuery } from '../retrieval/index.js';
import type { ContextSkill } from './context-skill.js';
import {
  GEN_AI,
  silentLogger,
  startTrace,
  type Logger,
  type RemoteParent,
  type SpanCollector,
  type SpanRecord,
  type TraceSpan,
} from '../telemetry/index.js';
import { answerFailure } from './answer-failure.js';
import { resolveFollowUp } from './follow-up.js';
import { withoutMarkup } from './without-markup.js';
import { bookNames, inBookNames } from './book-names.js';
import { questionAsRead } from './question-as-read.js';
import { mergeResponses, titleFromName, type AgentTitleOf } from './merge-responses.js';

/** Merges several agents' answers into one (spec R5). */
export interface Synthesiser {
  /** `titleOf` names each part's agent as a reader sees it (its `title`; see `agentTitle`). */
  synthesise(
    query: string,
    parts: AgentResponse[],
    dependencies: AgentDependencies,
    titleOf?: AgentTitleOf,
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
  /**
   * Where each answer's trace is recorded (the store's runs), as a `kind: 'answer'` run whose id
   * is the answer's `queryId`; the trace view reads it back. Without it spans only go to
   * OpenTelemetry (when an exporter is enabled).
   */
  traces?: TraceSink;
  /** Multi-domain agents run one after another (spec R5) or all at once. */
  multiDomain?: 'sequential' | 'parallel';
  now?: () => number;
}

/**
 * Records a finished run's spans (the store's `runs.recordTrace`). It is called after the answer
 * is complete and must not make the caller wait: the store queues the spans and writes them in
 * batches.
 */
export interface TraceSink {
  recordTrace(
    run: { id: string; kind: string; status: string; input: unknown },
    spans: readonly SpanRecord[],
  ): void;
}

/** The `kind` of an answer's run in the store. */
export const ANSWER_RUN_KIND = 'answer';

/** What an answer's run records as its input: the question, its session and who asked. */
export interface AnswerRunInput {
  query: string;
  /** The session, or `anonymous`. */
  sessionId: string;
  /** {@link AskOptions.owner}, when the caller gave one. */
  owner?: string;
}

/** How one question is asked. */
export interface AskOptions {
  /** Cancels the answer (a client that went away); its trace is recorded as `cancelled`. */
  signal?: AbortSignal;
  /**
   * The span the answer runs under: an MCP `tools/call` of this process, or a caller's W3C
   * `traceparent` (see `parseTraceparent`). The answer's own trace (`cohort.ask`) nests under it.
   */
  parent?: TraceSpan | RemoteParent;
  /**
   * Who asks, as the server knows its caller (a digest of its API key): recorded with the
   * answer's trace, so that only that caller reads the trace of an answer without a session (one
   * in a session is its owner's). Never shown in the trace.
   */
  owner?: string;
}

/** An assistant: route → agent(s) → (synthesis) → ChatResponse. */
export interface Assistant {
  readonly mode: AgentRunner['mode'];
  ask(input: unknown, options?: AskOptions): Promise<ChatResponse>;
  askStream(input: unknown, options?: AskOptions): AsyncIterable<AssistantEvent>;
  route(query: string): RouteResult;
  agents(): AgentInfoResponse;
}

/** What a span says about an agent's response: citations and, for a model, token use. */
function responseAttributes(response: AgentResponse | undefined) {
  if (!response) return {};
  const usage = response.metadata.usage as
    { promptTokens?: number; completionTokens?: number } | undefined;
  return {
    'cohort.citations': response.sources.length,
    ...(typeof usage?.promptTokens === 'number' ? { [GEN_AI.usageInput]: usage.promptTokens } : {}),
    ...(typeof usage?.completionTokens === 'number'
      ? { [GEN_AI.usageOutput]: usage.completionTokens }
      : {}),
  };
}

const extractiveSynthesiser: Synthesiser = {
  async *synthesise(_query, parts, dependencies, titleOf = titleFromName) {
    const notice = extractiveNotice(dependencies.rag.workName?.());
    const response = mergeResponses(parts, { notice, titleOf });
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
    streamOptions: AskOptions = {},
  ): AsyncIterable<AssistantEvent> {
    const request = parseInput(ChatRequest, input);
    const sessionId = request.sessionId ?? 'anonymous';
    const queryId = randomUUID();
    const collector: SpanCollector | undefined = options.traces ? { spans: [] } : undefined;
    const root = startTrace(
      'cohort.ask',
      {
        'cohort.query_id': queryId,
        'cohort.session_id': sessionId,
        'cohort.query.length': request.query.length,
        'cohort.mode': options.runner.mode,
      },
      collector,
      streamOptions.parent,
    );
    let status: 'done' | 'failed' | 'cancelled' | undefined;
    // Ends the root span once, whichever way the answer ends, and records the run's trace.
    const finish = (
      ended: NonNullable<typeof status>,
      attributes: Record<string, string>,
      error?: unknown,
    ) => {
      status = ended;
      if (error !== undefined) root.fail(error);
      root.end(attributes);
      if (collector)
        recordTrace(
          {
            query: request.query,
            sessionId,
            ...(streamOptions.owner ? { owner: streamOptions.owner } : {}),
          },
          queryId,
          ended,
          collector,
        );
    };
    try {
      for await (const event of answer(request, sessionId, queryId, root, streamOptions)) {
        if (event.type === 'done')
          finish('done', { 'cohort.agent': event.response.agentUsed ?? '' });
        yield event;
      }
    } catch (error) {
      const ended = streamOptions.signal?.aborted ? 'cancelled' : 'failed';
      finish(ended, { 'cohort.status': ended }, error);
      throw error;
    } finally {
      // A consumer that stops before the answer is done (a client gone from an SSE stream) ends
      // the iteration here: the trace still ends, as cancelled, and is recorded.
      if (status === undefined)
        finish(
          'cancelled',
          { 'cohort.status': 'cancelled' },
          new CohortError('aborted', 'The answer was cancelled before it was complete.'),
        );
    }
  }

  function recordTrace(
    input: AnswerRunInput,
    queryId: string,
    status: string,
    collector: SpanCollector,
  ): void {
    try {
      options.traces?.recordTrace(
        { id: queryId, kind: ANSWER_RUN_KIND, status, input },
        collector.spans,
      );
    } catch (cause) {
      // A trace that cannot be recorded never costs the user the answer.
      logger.warn('trace_not_saved', { queryId, cause: String(cause) });
    }
  }

  // Names users give an agent's subject (its `aliases`) that the book may never write: whether it
  // does is asked of retrieval once per alias (the passages found for it hold it or not).
  const names = bookNames(options.registry.all());
  const writtenInBook = new Map<string, Promise<boolean>>();
  const flat = (text: string) => text.toLowerCase().replace(/[\s-]+/g, ' ');
  function bookWrites(alias: string): Promise<boolean> {
    let known = writtenInBook.get(alias);
    if (!known) {
      known = options.rag.retrieve(alias, { limit: 10 }).then(
        (found) =>
          found.some((chunk) =>
            flat(`${chunk.title ?? ''} ${chunk.section ?? ''} ${chunk.text}`).includes(alias),
          ),
        // Unknown now: the alias stays as asked, and is asked about again next time.
        () => {
          writtenInBook.delete(alias);
          return true;
        },
      );
      writtenInBook.set(alias, known);
    }
    return known;
  }

  /**
   * The query in the book's spelling, or as typed when the retriever does not repair queries or
   * cannot be read now (the agent then reports the retrieval failure itself).
   */
  async function readInBookSpelling(query: string): Promise<RepairedQuery> {
    if (!options.rag.readQuery) return { text: query, repairs: [] };
    try {
      return await options.rag.readQuery(query);
    } catch (cause) {
      logger.warn('query_not_repaired', { cause: String(cause) });
      return { text: query, repairs: [] };
    }
  }

  /** One agent's run as an `invoke_agent` span (GenAI conventions) under the request. */
  function agentDeps(deps: AgentDependencies, parent: TraceSpan, name: string) {
    const span = parent.child(`invoke_agent ${name}`, {
      [GEN_AI.operationName]: 'invoke_agent',
      [GEN_AI.agentName]: name,
    });
    return { deps: { ...deps, span }, span };
  }

  async function* answer(
    request: ChatRequest,
    sessionId: string,
    queryId: string,
    root: TraceSpan,
    streamOptions: { signal?: AbortSignal },
  ): AsyncGenerator<AssistantEvent> {
    const started = now();
    const history = await options.context.getHistory(sessionId);
    // A follow-up with no subject of its own is routed and retrieved with the earlier subject.
    // HTML pasted with the question is no part of it ("<script>alert(1)</script>" searched "alert").
    const followUp = resolveFollowUp(withoutMarkup(request.query), history);
    // Words the book never uses are read in its spelling ("midterm" → "mid term", "optimisation"
    // → "optimization") before routing, retrieval and sentence choice, so none of them takes a
    // spelling the book does not use for a subject the book does not cover.
    const read = await readInBookSpelling(followUp.query);
    await options.beforeRoute?.();
    const routing = root.child('cohort.routing');
    const route = options.router.route(
      read.text,
      request.agent ? { agent: request.agent } : undefined,
    );
    const readings = [...read.repairs, ...(route.readAs ?? [])];
    routing.end({
      ...(readings.length > 0
        ? { 'cohort.routing.read_as': readings.map(([from, to]) => `${from} → ${to}`) }
        : {}),
      'cohort.routing.phase': route.phase,
      'cohort.routing.agent': route.primaryAgent,
      'cohort.routing.confidence': route.confidence,
      'cohort.routing.reason': route.routingReason,
      'cohort.routing.secondary_agents': route.isMultiDomain ? route.secondaryAgents : [],
      ...(route.intent ? { 'cohort.routing.intent': route.intent } : {}),
    });
    yield { type: 'route', route };

    // Retrieval and sentence choice take the question as the router read it ("topci" → "topic"),
    // with an agent's alias the book never writes in the book's name ("final project" → "capstone").
    let asked = questionAsRead(read.text, route.readAs);
    if (names.length > 0) {
      const named = await inBookNames(asked, names, bookWrites);
      if (named.read.length > 0) {
        asked = named.text;
        root.set({ 'cohort.answer.read_as': named.read.map(([from, to]) => `${from} → ${to}`) });
      }
    }
    const context = parseInput(AgentContext, {
      sessionId,
      query: request.query,
      ...(followUp.subject || asked !== request.query ? { standaloneQuery: asked } : {}),
      // Only a single-agent answer: the later asks of a multi-part question have subjects of their own.
      ...(route.offTopic && !route.isMultiDomain ? { offTopic: route.offTopic } : {}),
      chatHistory: history,
      ...(request.selectedText ? { selectedText: request.selectedText } : {}),
    });
    const deps: AgentDependencies = {
      rag: options.rag,
      logger: logger.child({ session: sessionId }),
      limit: options.retrieval?.limit ?? 5,
      minScore: options.retrieval?.minScore ?? 0.1,
      ...(streamOptions.signal ? { signal: streamOptions.signal } : {}),
    };

    const agentNames = [route.primaryAgent, ...(route.isMultiDomain ? route.secondaryAgents : [])];
    let response: AgentResponse | undefined;
    if (agentNames.length === 1 || !synthesiser) {
      const agent = options.registry.require(route.primaryAgent);
      const run = agentDeps(deps, root, agent.name);
      try {
        for await (const event of runAgent(options.runner, agent, context, run.deps)) {
          if (event.type === 'delta') yield { type: 'delta', text: event.text };
          if (event.type === 'response') response = event.response;
        }
      } catch (error) {
        run.span.fail(error);
        throw error;
      } finally {
        run.span.end(responseAttributes(response));
      }
    } else {
      const agents = agentNames.map((name) => options.registry.require(name));
      // Each agent answers its own asks, as read: a secondary its ask ("how long is the course"
      // of "What is a costmap, and how long is the course?"), the primary the rest.
      const contextOf = (name: string) => {
        const own = name === route.primaryAgent ? route.primaryAsk : route.secondaryAsks?.[name];
        const offTopic = name === route.primaryAgent ? undefined : route.secondaryOffTopic?.[name];
        return own === undefined
          ? context
          : {
              ...context,
              standaloneQuery: questionAsRead(own, route.readAs),
              ...(offTopic ? { offTopic } : {}),
            };
      };
      const run = async (agent: (typeof agents)[number]) => {
        const traced = agentDeps(deps, root, agent.name);
        let part: AgentResponse | undefined;
        try {
          part = await finalResponse(
            runAgent(options.runner, agent, contextOf(agent.name), traced.deps),
          );
          return part;
        } catch (error) {
          traced.span.fail(error);
          throw error;
        } finally {
          traced.span.end(responseAttributes(part));
        }
      };
      const parts: AgentResponse[] = [];
      if ((request.multiDomain ?? options.multiDomain) === 'parallel') {
        parts.push(...(await Promise.all(agents.map(run))));
      } else {
        for (const agent of agents) parts.push(await run(agent));
      }
      const synthesis = root.child('cohort.synthesis', { 'cohort.synthesis.parts': parts.length });
      try {
        // Each part is headed by its agent's title: "**module_info**" reads as a code word.
        const titleOf = (name: string) => agentTitle(options.registry.get(name) ?? { name });
        for await (const event of synthesiser.synthesise(
          request.query,
          parts,
          { ...deps, span: synthesis },
          titleOf,
        )) {
          if (event.type === 'delta') yield { type: 'delta', text: event.text };
          if (event.type === 'response') response = event.response;
        }
      } finally {
        synthesis.end(responseAttributes(response));
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
      queryId,
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
    // A plain question skips zod (routing's hot path); any other input gets zod's message. It is
    // decided in the book's spelling, as an answer's route is, so `/route` and `cohort route`
    // name the agent that would answer ("midterm" is the book's "Mid-term", not uncovered).
    route: (query) => {
      const asked = plainQuery(query) ?? parseInput(ChatRequest, { query }).query;
      return options.router.route(options.rag.readQueryNow?.(asked).text ?? asked);
    },
    agents: () => {
      const agents = options.registry.summaries();
      return { agents, total: agents.length };
    },
  };
}
