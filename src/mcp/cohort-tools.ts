import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { answerFailure, type Assistant } from '../assistant/index.js';
import { isCohortError } from '../errors/index.js';
import {
  ownedResearchRun,
  runResearch,
  type RequireRunAccess,
  type ResearchDependencies,
} from '../research/index.js';
import type { Retriever } from '../retrieval/index.js';
import { countOf, type TraceSpan } from '../telemetry/index.js';
import {
  ChatRequest,
  ChatResponse,
  parseWireInput,
  ResearchBody,
  researchResponse,
  RouteRequest,
  routeResponse,
  SearchBookRequest,
  SessionId,
  Query,
  toWire,
  type RetrievedChunk,
} from '../schema/index.js';
import { wireJsonSchema, type ToolJsonSchema } from './tool-json-schema.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** What a tool call may use besides its arguments: the request's signal and a progress reporter. */
export interface ToolCallContext {
  signal: AbortSignal;
  /** Reports progress to the client when it asked for it (a progress token); a no-op otherwise. */
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
  /** The call's `mcp tools/call` span: the run a tool starts nests under it. */
  span?: TraceSpan;
}

/** One MCP tool of cohort: a name, a description, the zod schema its arguments are read with. */
export interface CohortTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  inputSchema: ToolJsonSchema;
  outputSchema?: ToolJsonSchema;
  annotations?: ToolAnnotations;
  run(args: unknown, context: ToolCallContext): Promise<CallToolResult>;
}

/** What cohort's MCP tools are served from. */
export interface McpServedParts {
  assistant: Assistant;
  /** Retrieval for `search_book` (the assistant's own retriever). */
  retriever: Retriever;
  /** The parts of `research` runs, built on first use; without them there is no `research` tool. */
  research?: () => ResearchDependencies | Promise<ResearchDependencies>;
  /**
   * Checks that the caller may use a session before an answer reads or adds to it, claiming a new
   * one for the caller: the HTTP server's rule that a session belongs to the API key that first
   * used it (`/mcp` passes the request's key). It throws a `not_found` CohortError for another
   * caller's session. Absent over stdio, which has one caller.
   */
  claimSession?: (sessionId: string) => Promise<void>;
  /**
   * The same rule for a research run: `claim` records the caller as the owner of a new run before
   * it starts; another caller's run throws `refusal()` (the error of an unknown run). Absent over
   * stdio.
   */
  requireRun?: RequireRunAccess;
  /**
   * Who calls (the `/mcp` request's API key, as `AskOptions.owner`): an answer without a session
   * records it, so that only that key reads its trace. Absent over stdio.
   */
  owner?: string;
}

/** The message of a failure that is not a CohortError: the same words the HTTP API uses. */
export const INTERNAL_TOOL_ERROR =
  'The server failed to answer this request. Try again; if it keeps failing, report the request id.';

/** A tool error result: `isError` with the message a user can act on. */
export function toolError(error: unknown): CallToolResult {
  const message = isCohortError(error) ? error.message : INTERNAL_TOOL_ERROR;
  return { isError: true, content: [{ type: 'text', text: message }] };
}

const structured = (value: unknown) => toWire(value) as Record<string, unknown>;

/** Reads a tool's arguments as the HTTP API reads a body: snake_case keys, same messages. */
function define<S extends z.ZodType>(tool: {
  name: string;
  title: string;
  description: string;
  input: S;
  output?: z.ZodType;
  annotations?: ToolAnnotations;
  call(args: z.infer<S>, context: ToolCallContext): Promise<CallToolResult>;
}): CohortTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    input: tool.input,
    inputSchema: wireJsonSchema(tool.input),
    ...(tool.output ? { outputSchema: wireJsonSchema(tool.output, 'output') } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    async run(args, context) {
      try {
        return await tool.call(parseWireInput(tool.input, args ?? {}), context);
      } catch (error) {
        return toolError(error);
      }
    },
  };
}

/** An answer as a tool result: the text (with its Sources footer) and the whole response. */
async function answer(
  { assistant, claimSession, owner }: McpServedParts,
  request: ChatRequest,
  { signal, span }: ToolCallContext,
): Promise<CallToolResult> {
  if (request.sessionId && claimSession) await claimSession(request.sessionId);
  const response = await assistant.ask(request, {
    signal,
    ...(span ? { parent: span } : {}),
    ...(owner ? { owner } : {}),
  });
  // The same rule as /chat: an answer that could not search, reach the model or finish within
  // its step cap is that failure (a tool error with its message), not an answer.
  const failure = answerFailure(response);
  if (failure) throw failure;
  return {
    content: [{ type: 'text', text: response.answer }],
    structuredContent: structured(response),
  };
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

function passageText(chunks: RetrievedChunk[]): string {
  if (chunks.length === 0) return 'No passage of the book matches this query.';
  return chunks
    .map(
      (chunk, i) =>
        `[${i + 1}] ${chunk.title}${chunk.section ? ` › ${chunk.section}` : ''} (${chunk.source}, score ${chunk.score.toFixed(2)})\n${chunk.text}`,
    )
    .join('\n\n');
}

/** Arguments of a per-agent tool: the question and an optional session. */
const AgentAskRequest = lazySchema(() =>
  z.object({ query: Query, sessionId: SessionId.optional() }),
);

/**
 * cohort's MCP tools: `ask`, `route`, `search_book`, `research` (when research parts are given)
 * and `ask_<agent>` for every registered agent.
 *
 * @example
 * const tools = cohortTools({ assistant, retriever });
 */
export function cohortTools(parts: McpServedParts): CohortTool[] {
  const { assistant, retriever } = parts;
  const tools: CohortTool[] = [
    define({
      name: 'ask',
      title: 'Ask the book assistant',
      description:
        'Answers a question about the book with numbered [n] citations. The router picks the specialist agent unless `agent` names one; `session_id` (a UUID) keeps a conversation.',
      input: ChatRequest,
      output: ChatResponse,
      call: (request, context) => answer(parts, request, context),
    }),
    define({
      name: 'route',
      title: 'Route a question',
      description:
        'Shows which agent would answer a question and why (keyword, intent or fallback phase, confidence), without answering it.',
      input: RouteRequest,
      annotations: READ_ONLY,
      call: async ({ query }) => {
        const route = routeResponse(assistant.route(query));
        return {
          content: [
            {
              type: 'text',
              text: `${route.primaryAgent} (${route.phase}, confidence ${route.confidence.toFixed(2)}): ${route.reason}`,
            },
          ],
          structuredContent: structured(route),
        };
      },
    }),
    define({
      name: 'search_book',
      title: 'Search the book',
      description:
        'Retrieves the passages of the book that best match a query, optionally searching one content domain first (glossary, hardware, module_info, capstone, general), with their sources and scores.',
      input: SearchBookRequest,
      annotations: READ_ONLY,
      call: async ({ query, domain, limit }, { signal }) => {
        const chunks = await retriever.retrieve(query, {
          ...(domain ? { domain } : {}),
          ...(limit ? { limit } : {}),
          signal,
        });
        return {
          content: [{ type: 'text', text: passageText(chunks) }],
          structuredContent: structured({ query, passages: chunks }),
        };
      },
    }),
  ];
  const research = parts.research;
  if (research) {
    tools.push(
      define({
        name: 'research',
        title: 'Research a question',
        description:
          'Splits a question into tasks, researches each in parallel (the book, then the web and papers when needed) and writes a cited report. Reports progress per task; `resume` continues a stored run.',
        input: ResearchBody,
        call: async (body, { signal, progress, span }) => {
          const owned = parts.requireRun
            ? await ownedResearchRun(parts.requireRun, body.resume)
            : {};
          let total: number | undefined;
          let done = 0;
          const pending: Promise<void>[] = [];
          const result = await runResearch(body.question ?? '', {
            ...(await research()),
            ...(body.tasks ? { maxTasks: body.tasks } : {}),
            ...(body.resume ? { resume: body.resume } : {}),
            ...owned,
            signal,
            ...(span ? { parent: span } : {}),
            onEvent: (event) => {
              if (event.type === 'run_started') {
                total = event.tasks.length * 2;
                done = event.skippedTaskIds.length * 2;
                pending.push(
                  progress(done, total, `planned ${countOf(event.tasks.length, 'task')}`),
                );
              }
              if (event.type === 'task_started')
                pending.push(
                  progress(++done, total, `task ${event.taskId} started: ${event.task}`),
                );
              if (event.type === 'task_finished')
                pending.push(
                  progress(
                    ++done,
                    total,
                    `task ${event.taskId} ${event.status} (${countOf(event.sources, 'source')})`,
                  ),
                );
            },
          });
          await Promise.all(pending);
          const response = researchResponse(result);
          return {
            content: [{ type: 'text', text: response.report }],
            structuredContent: structured(response),
          };
        },
      }),
    );
  }
  for (const agent of assistant.agents().agents) {
    tools.push(
      define({
        name: `ask_${agent.name}`,
        title: `Ask the ${agent.name} agent`,
        description: `${agent.description} Skips routing: the ${agent.name} agent answers, with [n] citations.`,
        input: AgentAskRequest,
        output: ChatResponse,
        call: (request, context) => answer(parts, { ...request, agent: agent.name }, context),
      }),
    );
  }
  return tools;
}
