import type { ModelMessage } from 'ai';
import * as z from 'zod';
import type { CohortConfig } from '../../config/index.js';
import { CohortError, isCohortError } from '../../errors/index.js';
import { isEmbeddingError, type ModelProvider } from '../../models/index.js';
import {
  EMPTY_QUERY_MESSAGE,
  type AgentContext,
  type AgentResponse,
  type Citation,
  type RetrievedChunk,
} from '../../schema/index.js';
import {
  createCitationGuard,
  formatCitations,
  formatSourcesFooter,
} from '../../citations/index.js';
import { countOf, silentLogger, type Logger } from '../../telemetry/index.js';
import type { Agent } from '../define-agent.js';
import type { AgentDependencies } from '../dependencies.js';
import {
  defineTool,
  emptyUsage,
  runLoopStream,
  stepCapMessage,
  type LoopResult,
  type LoopTool,
} from '../loop/index.js';
import { ANSWER_MESSAGES, answerMessages, DEFAULT_WORK_NAME } from '../messages.js';
import type { AgentEvent, AgentRunner } from './runner.js';
import { lazySchema } from '../../schema/lazy-schema.js';

/** The book search tool's name (rag-agent-research.md §1). */
export const SEARCH_TOOL_NAME = 'search_book_content';
/** Spec §4: the search tool found nothing and the answer cites nothing. */
export const NO_RESULTS_MESSAGE = ANSWER_MESSAGES.noResults;
/** Spec §4: the retrieval store is unavailable. */
export const RETRIEVAL_UNAVAILABLE_MESSAGE = ANSWER_MESSAGES.retrievalUnavailable;
/** Spec §4: the model (or embedding) service failed after its retries. */
export const MODEL_FAILURE_MESSAGE = ANSWER_MESSAGES.modelFailure;
export { EMPTY_QUERY_MESSAGE };

/**
 * The strict grounding prompt of rag-agent-research.md §6, naming the work as it names itself
 * ("the documentation" over the ROS 2 docs; see `workNameOf`). Two changes from the spec's text:
 * the no-results sentence is the one cohort enforces (§4), and the model is told not to list
 * sources itself because cohort appends a checked Sources footer.
 */
export function groundingSystemPrompt(work: string = DEFAULT_WORK_NAME): string {
  return `You are a helpful assistant that answers questions about the ${work}.

IMPORTANT RULES:
1. ONLY use information from the ${SEARCH_TOOL_NAME} tool to answer questions.
2. If the tool returns no results or irrelevant content, say "${answerMessages(work).noResults}"
3. NEVER make up information. If unsure, acknowledge the limitation.
4. Always cite your sources using [1], [2], etc. notation, where the number is the passage's "index" in the tool results.
5. Do not write a list of sources yourself: a Sources section with the cited passages is appended to your answer automatically.

When the user asks a question:
1. First, search the ${work} content using the provided tool
2. Review the retrieved chunks for relevance (each has a similarity score from 0 to 1)
3. Formulate your answer based ONLY on the retrieved content
4. Include citations`;
}

/** {@link groundingSystemPrompt} for a book, as the spec words it. */
export const GROUNDING_SYSTEM_PROMPT = groundingSystemPrompt();

/** What the search tool tells the model (spec §4). */
export interface SearchToolResult {
  status: 'success' | 'no_results' | 'error';
  content: Array<{
    index: number;
    source: string;
    title: string;
    section?: string;
    score: number;
    text: string;
  }>;
  message?: string;
}

/** Options of {@link createModelRunner}. */
export interface ModelRunnerOptions {
  provider: ModelProvider;
  config: CohortConfig;
  logger?: Logger;
  /** First retry backoff in milliseconds (tests shorten it). */
  retryDelayMs?: number;
  /**
   * Tools besides the book search (an MCP server's, `mcp__<server>__<tool>`). Every agent may
   * use them unless its `tools` list names some `mcp__…` entries: then only those (an entry
   * `mcp__<server>` allows all of that server's tools).
   */
  tools?: readonly LoopTool[];
}

/** The extra tools an agent may call, by its `tools` list (see {@link ModelRunnerOptions.tools}). */
function allowedExtraTools(agent: Agent, tools: readonly LoopTool[]): string[] {
  const named = agent.tools.filter((name) => name.startsWith('mcp__'));
  return tools
    .map((tool) => tool.name)
    .filter(
      (name) =>
        named.length === 0 ||
        named.some(
          (entry) => name === entry || name.startsWith(`${entry}__`) || entry === 'mcp__*',
        ),
    );
}

const SearchInput = lazySchema(() =>
  z.object({
    // The descriptions of rag-agent-research.md §1's tool schema, which the model reads.
    query: z.string().trim().min(1, 'query must not be empty').describe('The search query'),
    top_k: z.number().int().min(1).max(50).default(5).describe('Number of results'),
  }),
);

/**
 * The model-backed agent runner: the agent's model drives the tool-calling loop with
 * `search_book_content` bound to the agent's domain, under the strict grounding prompt. Every
 * `[n]` in the answer is checked against the passages actually retrieved; markers pointing nowhere
 * are removed and listed in `metadata.ungrounded_citations`, and the Sources footer lists only
 * cited passages. Failures answer with the spec §4 messages.
 *
 * @example
 * const runner = createModelRunner({ provider: createModelProvider(config), config, logger });
 * const response = await finalResponse(runner.run(agent, context, deps));
 */
export function createModelRunner(options: ModelRunnerOptions): AgentRunner {
  const { provider, config } = options;
  return {
    mode: 'model',
    run: (agent, context, deps) =>
      runModelAgent(
        agent,
        context,
        deps,
        deps.logger ?? options.logger ?? silentLogger,
        provider,
        config,
        options.retryDelayMs,
        options.tools ?? [],
      ),
  };
}

async function* runModelAgent(
  agent: Agent,
  context: AgentContext,
  deps: AgentDependencies,
  logger: Logger,
  provider: ModelProvider,
  config: CohortConfig,
  retryDelayMs: number | undefined,
  extraTools: readonly LoopTool[],
): AsyncGenerator<AgentEvent> {
  const modelId = provider.resolveModelId(agent.model);
  const base = { mode: 'model', model: modelId };
  const respond = (
    response: string,
    metadata: Record<string, unknown>,
    sources: Citation[] = [],
  ): AgentEvent => ({
    type: 'response',
    response: { response, sources, agentName: agent.name, metadata: { ...base, ...metadata } },
  });
  if (!context.query || context.query.trim() === '') {
    yield respond(EMPTY_QUERY_MESSAGE, { error: 'empty_query', usage: emptyUsage(), calls: [] });
    return;
  }

  // The work as it names itself, once the index is built (reading the question built it).
  const work = deps.rag.workName?.() ?? DEFAULT_WORK_NAME;
  const messages = answerMessages(work);
  // The context's domain filter (data-model spec, AgentContext) restricts the search as it does
  // for the extractive runner; without one the agent's own retrieval domain applies.
  const search = createSearchTool(deps, context.domainFilter ?? agent.retrievalDomain, work);
  const guard = createCitationGuard((n) => n >= 1 && n <= search.chunks.length);
  let result: LoopResult | undefined;
  let shown = '';
  let breakBeforeText = false;
  try {
    const events = runLoopStream({
      model: provider.languageModel(agent.model),
      system: `${groundingSystemPrompt(work)}\n\n${agent.systemPrompt}`,
      messages: toMessages(context, work),
      tools: [search.tool, ...extraTools],
      allowedTools: [...agent.tools, ...allowedExtraTools(agent, extraTools)],
      maxSteps: config.model.maxSteps,
      timeoutMs: config.model.timeoutSeconds * 1000,
      maxRetries: config.model.maxRetries,
      ...(retryDelayMs !== undefined ? { retryDelayMs } : {}),
      ...(config.model.temperature !== undefined ? { temperature: config.model.temperature } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(deps.span ? { span: deps.span } : {}),
      // Spec §4: an unavailable store (or embedding service) aborts the search; asking the model again would not help.
      stopWhen: () => (search.failure ? 'retrieval unavailable' : undefined),
    });
    for await (const event of events) {
      if (event.type === 'text-delta') {
        const text = guard.push(breakBeforeText && shown ? `\n\n${event.text}` : event.text);
        breakBeforeText = false;
        if (text) {
          shown += text;
          yield { type: 'delta', text };
        }
      } else if (event.type === 'step-finish') {
        breakBeforeText = event.toolCalls > 0;
      } else if (event.type === 'tool-result') {
        yield* search.drain();
      } else if (event.type === 'retry') {
        logger.warn('model_call_retry', {
          agent: agent.name,
          model: modelId,
          attempt: event.attempt,
          reason: event.message,
        });
      } else if (event.type === 'finish') {
        result = event.result;
      }
    }
  } catch (error) {
    if (isCohortError(error, 'aborted')) throw error;
    // The caller went away (a client disconnect): that is a cancellation, not a model failure.
    if (deps.signal?.aborted) {
      throw new CohortError('aborted', 'The question was cancelled.', { cause: error });
    }
    const code = isCohortError(error) ? error.code : 'model_unavailable';
    logger.error('model_call_failed', {
      agent: agent.name,
      model: modelId,
      code,
      message: error instanceof Error ? error.message : String(error),
      cause: describeCause(error),
    });
    yield respond(messages.modelFailure, { error: code, ...searchMetadata(search) });
    return;
  }
  if (!result) throw new CohortError('internal', 'The model run ended without a result.');
  if (result.finishReason === 'aborted')
    throw new CohortError('aborted', 'The question was cancelled.');

  const tail = guard.flush();
  if (tail) {
    shown += tail;
    yield { type: 'delta', text: tail };
  }
  const metadata = {
    usage: result.usage,
    calls: result.calls,
    steps: result.steps,
    finishReason: result.finishReason,
    toolCalls: result.toolCalls.length,
    ungrounded_citations: guard.ungrounded(),
    ...searchMetadata(search),
  };
  if (search.failure && isEmbeddingError(search.failure)) {
    // Spec §4: an embedding failure is "I'm unable to process your question right now".
    logger.error('embedding_failed', {
      agent: agent.name,
      message: search.failure.message,
      cause: describeCause(search.failure),
    });
    yield respond(messages.modelFailure, { ...metadata, error: 'model_unavailable' });
    return;
  }
  if (search.failure) {
    logger.error('retrieval_failed', {
      agent: agent.name,
      message: search.failure.message,
      cause: describeCause(search.failure),
    });
    yield respond(messages.retrievalUnavailable, { ...metadata, error: 'retrieval_unavailable' });
    return;
  }
  if (result.finishReason === 'max_steps') {
    // The model was still calling tools at the step cap: what it wrote on the way is not an
    // answer. Shells report the cap and how to raise it (a non-zero exit, HTTP 503
    // `budget_exceeded`), and the turn is not kept in the session's history.
    const message = result.stopMessage ?? stepCapMessage(config.model.maxSteps);
    logger.warn('step_limit_reached', { agent: agent.name, model: modelId, steps: result.steps });
    yield respond(message, { ...metadata, error: 'budget_exceeded' });
    return;
  }
  const cited = guard.cited();
  if (cited.length === 0 && search.searches > 0 && search.chunks.length === 0) {
    // Spec §4: every search came back empty and the answer cites nothing, so it cannot be grounded.
    yield respond(messages.noResults, { ...metadata, error: 'no_results' });
    return;
  }
  let answer = shown.trim();
  if (!answer) answer = result.stopMessage ?? messages.noResults;
  const ungrounded = guard.ungrounded();
  if (cited.length === 0 && ungrounded.length > 0) {
    // Every marker named a passage the model was not given: say so under the text already shown.
    const note = `\n\n${messages.uncitedAnswer(ungrounded)}`;
    yield { type: 'delta', text: note };
    answer += note;
  }
  const all = formatCitations(search.chunks);
  const sources = cited.map((n, i) => ({ ...(all[n - 1] as Citation), index: i + 1 }));
  const footer = formatSourcesFooter(sources);
  if (footer) yield { type: 'delta', text: footer };
  const response: AgentResponse = {
    response: answer + footer,
    sources,
    agentName: agent.name,
    ...(sources.length > 0 ? { confidence: mean(sources.map((s) => s.relevanceScore)) } : {}),
    metadata: { ...base, body: answer, ...metadata },
  };
  yield { type: 'response', response };
}

interface SearchTool {
  tool: LoopTool;
  /** Every distinct chunk retrieved, numbered 1.. in order received across calls. */
  chunks: RetrievedChunk[];
  searches: number;
  failure: CohortError | undefined;
  /** Retrieval events waiting to be yielded. */
  drain(): Generator<AgentEvent>;
}

function createSearchTool(
  deps: AgentDependencies,
  domain: string | undefined,
  work: string,
): SearchTool {
  const chunks: RetrievedChunk[] = [];
  const numbers = new Map<string, number>();
  const pending: AgentEvent[] = [];
  const state: SearchTool = {
    chunks,
    searches: 0,
    failure: undefined,
    *drain() {
      while (pending.length > 0) yield pending.shift() as AgentEvent;
    },
    tool: defineTool({
      name: SEARCH_TOOL_NAME,
      description: `Search the ${work} for passages relevant to a query${domain ? ` (searches the ${domain} part of the ${work} first)` : ''}. Returns numbered passages with similarity scores from 0 to 1; cite a passage as [index].`,
      inputSchema: SearchInput,
      execute: async ({ query, top_k }, { signal, span }): Promise<SearchToolResult> => {
        state.searches++;
        let found: RetrievedChunk[];
        try {
          found = await deps.rag.retrieve(query, {
            limit: top_k,
            signal,
            span,
            ...(domain ? { domain } : {}),
          });
        } catch (error) {
          if (signal.aborted) throw error;
          state.failure = isCohortError(error)
            ? error
            : new CohortError('retrieval_unavailable', 'The retrieval service failed.', {
                cause: error,
              });
          return {
            status: 'error',
            content: [],
            message: isEmbeddingError(error)
              ? answerMessages(work).modelFailure
              : answerMessages(work).retrievalUnavailable,
          };
        }
        pending.push({ type: 'retrieval', query, chunks: found });
        if (found.length === 0)
          return { status: 'no_results', content: [], message: 'No relevant content found' };
        const content = found.map((chunk) => {
          const key = chunk.id ?? `${chunk.source}#${chunk.section ?? ''}#${chunk.text}`;
          let index = numbers.get(key);
          if (index === undefined) {
            chunks.push(chunk);
            index = chunks.length;
            numbers.set(key, index);
          }
          return {
            index,
            source: chunk.source,
            title: chunk.title,
            ...(chunk.section ? { section: chunk.section } : {}),
            score: Math.round(chunk.score * 1000) / 1000,
            text: chunk.text,
          };
        });
        const weak = found.every((chunk) => chunk.score < deps.minScore);
        return {
          status: 'success',
          content,
          message: weak
            ? `Every passage scores below ${deps.minScore}: they may not be relevant. Answer only if they really answer the question.`
            : `Found ${countOf(found.length, 'passage')}. Cite them by index.`,
        };
      },
    }),
  };
  return state;
}

function toMessages(context: AgentContext, work: string): ModelMessage[] {
  const history: ModelMessage[] = context.chatHistory.map((message) =>
    message.role === 'user'
      ? { role: 'user', content: message.content }
      : { role: 'assistant', content: message.content },
  );
  const question = context.selectedText
    ? `${context.query}\n\nThe reader selected this text in the ${work}:\n"""\n${context.selectedText}\n"""`
    : context.query;
  return [...history, { role: 'user', content: question }];
}

function searchMetadata(search: SearchTool) {
  return { searches: search.searches, retrievedChunks: search.chunks.length };
}

function describeCause(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? cause.message : cause === undefined ? undefined : String(cause);
}

function mean(values: number[]): number {
  return Math.round((values.reduce((sum, v) => sum + v, 0) / values.length) * 1000) / 1000;
}
