import * as z from 'zod';
import {
  AgentInfoResponse,
  ChatRequest,
  ChatResponse,
  RouteRequest,
  RouteResponse,
  wireKey,
} from '../schema/index.js';
import {
  ErrorResponse,
  HealthResponse,
  MAX_SESSION_MESSAGES,
  SessionDeletedResponse,
  SessionMessagesResponse,
  TraceResponse,
} from './api-schemas.js';
import {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  ModelList,
} from './openai-schemas.js';
import { ResearchBody, ResearchResponse } from './research-schemas.js';
import { ApprovalBody, CodeBody, CodeRunResponse } from './routes/code-routes.js';
import { MAX_RUN_ID_LENGTH } from './run-id-param.js';

type Json = Record<string, unknown>;

/** Renames `properties` keys and `required` entries to snake_case, as the wire form does. */
function toWireSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toWireSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [wireKey(name), toWireSchema(inner)]),
      );
    } else if (key === 'required' && Array.isArray(value)) {
      out[key] = value.map((name) => (typeof name === 'string' ? wireKey(name) : name));
    } else {
      out[key] = toWireSchema(value);
    }
  }
  return out;
}

/** The JSON Schema of a zod schema in wire form; dates are ISO strings on the wire. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): unknown {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      if (ctx.zodSchema._zod.def.type === 'date') {
        ctx.jsonSchema.type = 'string';
        ctx.jsonSchema.format = 'date-time';
      }
    },
  });
  return toWireSchema(rest);
}

const SCHEMAS: Record<string, [z.ZodType, 'input' | 'output']> = {
  ChatRequest: [ChatRequest, 'input'],
  ChatResponse: [ChatResponse, 'output'],
  RouteRequest: [RouteRequest, 'input'],
  RouteResponse: [RouteResponse, 'output'],
  AgentInfoResponse: [AgentInfoResponse, 'output'],
  HealthResponse: [HealthResponse, 'output'],
  SessionMessagesResponse: [SessionMessagesResponse, 'output'],
  SessionDeletedResponse: [SessionDeletedResponse, 'output'],
  ErrorResponse: [ErrorResponse, 'output'],
  TraceResponse: [TraceResponse, 'output'],
  ChatCompletionRequest: [ChatCompletionRequest, 'input'],
  ChatCompletion: [ChatCompletion, 'output'],
  ChatCompletionChunk: [ChatCompletionChunk, 'output'],
  ModelList: [ModelList, 'output'],
  ResearchRequest: [ResearchBody, 'input'],
  ResearchResponse: [ResearchResponse, 'output'],
  CodeRequest: [CodeBody, 'input'],
  CodeApproval: [ApprovalBody, 'input'],
  CodeRunResponse: [CodeRunResponse, 'output'],
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed request: the body is not JSON or gives a key twice in one object, or a path/query parameter is malformed',
  401: 'Missing or wrong bearer token (only when the server has an API key)',
  404: 'Unknown route, session, agent or run',
  413: 'Body larger than server.bodyLimitBytes',
  409: 'The run is not in a state to be answered (answered already, or not paused)',
  415: 'Body not sent as application/json',
  422: 'Valid JSON whose fields are wrong; error.field names the field',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Unexpected server failure',
  503: 'Store or retrieval unavailable',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });

function operation(
  summary: string,
  options: {
    body?: string;
    ok: string;
    okType?: 'json' | 'sse' | 'html';
    errors: number[];
    open?: boolean;
    parameters?: Json[];
  },
): Json {
  const common = [401, 429, 500];
  const errors = [...new Set([...options.errors, ...(options.open ? [500] : common)])].sort();
  const okContent =
    options.okType === 'sse'
      ? { 'text/event-stream': { schema: { type: 'string' } } }
      : options.okType === 'html'
        ? { 'text/html': { schema: { type: 'string' } } }
        : json(options.ok);
  return {
    summary,
    ...(options.open ? { security: [] } : {}),
    ...(options.parameters ? { parameters: options.parameters } : {}),
    ...(options.body ? { requestBody: { required: true, content: json(options.body) } } : {}),
    responses: {
      200: {
        description: options.okType === 'sse' ? options.ok : 'OK',
        content: okContent,
      },
      ...Object.fromEntries(
        errors.map((status) => [
          status,
          { description: ERROR_TEXT[status] ?? 'Error', content: json('ErrorResponse') },
        ]),
      ),
    },
  };
}

/** An asset of the web page: open, revalidated by ETag (304). */
const asset = (summary: string, type: string): Json => ({
  summary,
  security: [],
  responses: {
    200: { description: 'OK', content: { [type]: { schema: { type: 'string' } } } },
    304: { description: 'Not modified (If-None-Match matched the ETag)' },
    500: { description: ERROR_TEXT[500], content: json('ErrorResponse') },
  },
});

const sessionId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
};
const runId = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'the query_id of an answer, or the run_id of a research or coding run',
  schema: { type: 'string', minLength: 1, maxLength: MAX_RUN_ID_LENGTH },
};
const BODY_ERRORS = [400, 413, 415, 422];

/** A JSON-RPC 2.0 error answer of `/mcp` (the MCP transport's errors are JSON-RPC, not the API's). */
const jsonRpcError = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          jsonrpc: { const: '2.0' },
          error: {
            type: 'object',
            properties: { code: { type: 'integer' }, message: { type: 'string' } },
            required: ['code', 'message'],
          },
          id: { type: 'null' },
        },
        required: ['jsonrpc', 'error', 'id'],
      },
    },
  },
});

/** `/mcp`: MCP's streamable HTTP transport, stateless (see docs/mcp.md). */
function mcpOperations(): Json {
  const message = { type: 'object', description: 'A JSON-RPC 2.0 request or notification' };
  const notServed = {
    summary:
      'Not served: /mcp is stateless, so there is no session stream to open (GET) or end (DELETE)',
    responses: { 405: jsonRpcError('JSON-RPC error -32000; Allow: POST') },
  };
  return {
    post: {
      summary:
        "Model Context Protocol over streamable HTTP (stateless): cohort's tools (ask, ask_<agent>, route, search_book, research) and documents; send Accept: application/json, text/event-stream",
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { oneOf: [message, { type: 'array', items: message }] },
          },
        },
      },
      responses: {
        200: {
          description:
            'The JSON-RPC answers, as Server-Sent Events (progress notifications of research, then the result)',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        202: { description: 'Accepted: the body held only notifications or responses' },
        400: jsonRpcError(
          'JSON-RPC error: -32700 for a body that is not JSON, -32600 for JSON that is not a JSON-RPC message',
        ),
        406: jsonRpcError('The Accept header does not take application/json and text/event-stream'),
        415: jsonRpcError('Body not sent as application/json'),
        ...Object.fromEntries(
          [401, 413, 429, 500].map((status) => [
            status,
            { description: ERROR_TEXT[status] ?? 'Error', content: json('ErrorResponse') },
          ]),
        ),
      },
    },
    get: notServed,
    delete: notServed,
  };
}

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the same zod schemas that validate it,
 * in wire (snake_case) form.
 *
 * @example
 * const doc = buildOpenApiDocument('0.1.0'); // serve at /openapi.json
 */
export function buildOpenApiDocument(version: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'cohort HTTP API',
      version,
      description:
        'The book assistant over HTTP: routed, cited answers (JSON or Server-Sent Events), agents, sessions, research and coding runs and their traces, MCP, and an OpenAI-compatible endpoint. See docs/http-api.md.',
    },
    components: {
      schemas: Object.fromEntries(
        Object.entries(SCHEMAS).map(([name, [schema, io]]) => [name, jsonSchema(schema, io)]),
      ),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }],
    paths: {
      '/chat': {
        post: operation('Ask a question; get the routed, cited answer', {
          body: 'ChatRequest',
          ok: 'ChatResponse',
          errors: [...BODY_ERRORS, 404, 503],
        }),
      },
      '/chat/stream': {
        post: operation('Ask a question; stream the answer as Server-Sent Events', {
          body: 'ChatRequest',
          ok: 'Events: `route` (RouteResponse), `delta` ({text}), `citations` ({citations}), `done` (ChatResponse), `error` (ErrorResponse)',
          okType: 'sse',
          errors: [...BODY_ERRORS, 404, 503],
        }),
      },
      '/route': {
        post: operation('The routing decision for a query, without running an agent', {
          body: 'RouteRequest',
          ok: 'RouteResponse',
          errors: BODY_ERRORS,
        }),
      },
      '/research': {
        post: operation('Run a research question: parallel subagents, then a cited report', {
          body: 'ResearchRequest',
          ok: 'ResearchResponse',
          errors: [...BODY_ERRORS, 404, 503],
        }),
      },
      '/research/stream': {
        post: operation('Run a research question; stream events per node and per subagent', {
          body: 'ResearchRequest',
          ok: 'Events: `run_started`, `task_started`, `node`, `task_finished`, `report`, then `done` (ResearchResponse) or `error` (ErrorResponse)',
          okType: 'sse',
          errors: [...BODY_ERRORS, 404, 503],
        }),
      },
      '/code': {
        post: operation(
          'Run the coding assistant on the server workspace; a call the permission rules ask about pauses the run (status awaiting_approval)',
          { body: 'CodeRequest', ok: 'CodeRunResponse', errors: [...BODY_ERRORS, 503] },
        ),
      },
      '/code/stream': {
        post: operation('Run the coding assistant; stream its events', {
          body: 'CodeRequest',
          ok: 'Events: `run_started`, `skill`, `text`, `tool_call`, `tool_result`, `approval_required` (one per pending call), then `done` (CodeRunResponse) or `error` (ErrorResponse)',
          okType: 'sse',
          errors: [...BODY_ERRORS, 503],
        }),
      },
      '/code/runs/{id}/approval': {
        post: operation(
          'Answer a paused coding run (yes, no or always) and resume it from the store; 409 when it is not waiting',
          { body: 'CodeApproval', ok: 'CodeRunResponse', errors: [...BODY_ERRORS, 404, 409, 503] },
        ),
      },
      '/code/runs/{id}/approval/stream': {
        post: operation('Answer a paused coding run and stream the rest of it', {
          body: 'CodeApproval',
          ok: 'The events of /code/stream, from the answered calls on',
          okType: 'sse',
          errors: [...BODY_ERRORS, 404, 409, 503],
        }),
      },
      '/runs/{id}/trace': {
        get: operation(
          'The recorded spans of an answer, research run or coding run, with its duration, tokens and routing decision',
          { ok: 'TraceResponse', errors: [400, 404, 503], parameters: [runId] },
        ),
      },
      '/mcp': mcpOperations(),
      '/agents': {
        get: operation('The registered agents', { ok: 'AgentInfoResponse', errors: [] }),
      },
      '/sessions/{id}/messages': {
        get: operation("A session's latest messages, oldest first", {
          ok: 'SessionMessagesResponse',
          errors: [400, 404, 503],
          parameters: [
            sessionId,
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: MAX_SESSION_MESSAGES },
            },
          ],
        }),
      },
      '/sessions/{id}': {
        delete: operation("Delete a session's messages", {
          ok: 'SessionDeletedResponse',
          errors: [400, 404, 503],
          parameters: [sessionId],
        }),
      },
      '/v1/chat/completions': {
        post: operation('OpenAI-compatible chat completion (`stream: true` for chunks)', {
          body: 'ChatCompletionRequest',
          ok: 'ChatCompletion',
          errors: [...BODY_ERRORS, 404, 503],
        }),
      },
      '/v1/models': {
        get: operation('Models: `cohort` (routed) and one per agent', {
          ok: 'ModelList',
          errors: [],
        }),
      },
      '/healthz': {
        get: operation('Store reachable and answering mode', {
          ok: 'HealthResponse',
          errors: [503],
          open: true,
        }),
      },
      '/openapi.json': {
        get: {
          summary: 'This document',
          responses: { 200: { description: 'OpenAPI 3.1 document' } },
        },
      },
      '/': {
        get: operation('The web chat page', { ok: 'page', okType: 'html', errors: [], open: true }),
      },
      '/app.js': {
        get: asset('The web page script', 'text/javascript'),
      },
      '/app.css': {
        get: asset('The web page style sheet', 'text/css'),
      },
    },
  };
}
