import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { clipText, isCohortError } from '../errors/index.js';
import { GEN_AI, inSpan, parseTraceparent, type TraceSpan } from '../telemetry/index.js';
import type { Store } from '../store/index.js';
import { cohortTools, type CohortTool, type McpServedParts } from './cohort-tools.js';
import { DOCS_URI_TEMPLATE, listDocResources, readDocResource } from './doc-resources.js';

/** Everything cohort's MCP server serves: the tools' parts and the store's documents. */
export interface McpServerParts extends McpServedParts {
  store: Pick<Store, 'chunks'>;
  version?: string;
}

/**
 * Builds cohort's MCP server (not yet connected): the tools of {@link cohortTools} and the
 * ingested documents as `cohort://docs/<path>` resources. Tool arguments are read with the same
 * zod schemas and messages as the HTTP API; a failure is a tool error (`isError`), not a protocol
 * error, so the calling model sees it.
 *
 * @example
 * const server = createMcpServer({ assistant, retriever, store });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(parts: McpServerParts): McpServer {
  const server = new McpServer(
    { name: 'cohort', title: 'cohort book assistant', version: parts.version ?? '0.0.0' },
    {
      instructions:
        'cohort answers questions about its ingested book with numbered citations (`ask`, or `ask_<agent>` to pick the specialist), shows routing decisions (`route`), searches passages (`search_book`) and runs parallel research (`research`). The documents are resources at cohort://docs/<path>.',
    },
  );
  const tools = cohortTools(parts);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  // Tools are served through the low-level handlers so the arguments are validated by cohort's
  // own schemas (McpServer.registerTool would validate first, with its own messages).
  server.server.registerCapabilities({ tools: { listChanged: false } });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `No tool "${request.params.name}". List the tools to see cohort's.`,
      );
    const token = request.params._meta?.progressToken;
    // The call continues its caller's trace (MCP carries it in `_meta.traceparent`; over HTTP the
    // request's `traceparent` header), and the run it starts (an answer, a research run) nests
    // under it.
    const parent =
      parseTraceparent(request.params._meta?.traceparent) ??
      parseTraceparent(headerValue(extra.requestInfo?.headers, 'traceparent'));
    const attributes = { 'mcp.method.name': 'tools/call', [GEN_AI.toolName]: tool.name };
    return inSpan(parent, `mcp tools/call ${tool.name}`, attributes, async (span) => {
      const result = await runTool(tool, request.params.arguments, token, extra, span);
      if (result.isError)
        span.fail(result.content.map((item) => (item.type === 'text' ? item.text : '')).join(''));
      return result;
    });
  });

  server.registerResource(
    'document',
    new ResourceTemplate(DOCS_URI_TEMPLATE, {
      list: async () => ({ resources: await listDocResources(parts.store) }),
    }),
    {
      title: 'Ingested document',
      description:
        'A document of the knowledge base, one content item per section; add ?section=<heading path> for one section.',
      mimeType: 'text/markdown',
    },
    async (uri) => {
      try {
        return await readDocResource(parts.store, uri.toString());
      } catch (error) {
        // The SDK reports any throw without a numeric code as -32603 Internal error; a URI that
        // names no document (or no section of it) is the caller's to fix, as for an unknown tool.
        if (isCohortError(error, 'invalid_input') || isCohortError(error, 'not_found'))
          throw new McpError(ErrorCode.InvalidParams, error.message);
        throw error;
      }
    },
  );
  reportMalformedParams(server);
  return server;
}

/** A request handler as the SDK keeps them, after its own parse of the request. */
type StoredHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Makes a request whose params do not fit the method's schema (`tools/call` with `name: 5`,
 * `arguments: "x"`) a JSON-RPC `-32602 Invalid params` naming the field, instead of the SDK's
 * `-32603 Internal error` with a dump of zod issues: the SDK parses params before the handler
 * runs and reports any throw without a numeric code as internal. Wraps the handlers registered
 * so far (the SDK keeps them in `_requestHandlers`); if a later SDK keeps them elsewhere, this
 * does nothing and the SDK's own answer stands.
 */
function reportMalformedParams(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of handlers as Map<string, StoredHandler>) {
    handlers.set(method, async (request: unknown, extra: unknown) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        // resources/read: the SDK reads the URI with new URL() before cohort's handler runs.
        if (method === 'resources/read' && isInvalidUrl(error)) {
          const uri = (request as { params?: { uri?: unknown } }).params?.uri;
          throw new McpError(
            ErrorCode.InvalidParams,
            `uri: ${JSON.stringify(clipText(String(uri), 200))} is not a URI: use one the resource list gives (cohort://docs/<path>).`,
          );
        }
        const issue = zodIssue(error);
        if (!issue) throw error;
        const field = issue.path.map(String).join('.') || 'params';
        throw new McpError(ErrorCode.InvalidParams, `${field}: ${issue.message}`);
      }
    });
  }
}

/** Whether `error` is the TypeError of `new URL()` given a string that is no URL. */
function isInvalidUrl(error: unknown): boolean {
  return error instanceof TypeError && (error as NodeJS.ErrnoException).code === 'ERR_INVALID_URL';
}

/** The first issue of a zod error (the SDK's parse), else undefined. */
function zodIssue(error: unknown): { path: PropertyKey[]; message: string } | undefined {
  if (!(error instanceof Error) || !/^\$?ZodError$/.test(error.name)) return undefined;
  const issues = (error as Error & { issues?: unknown }).issues;
  const first: unknown = Array.isArray(issues) ? issues[0] : undefined;
  if (typeof first !== 'object' || first === null) return undefined;
  const { path, message } = first as { path?: unknown; message?: unknown };
  return {
    path: Array.isArray(path) ? (path as PropertyKey[]) : [],
    message: typeof message === 'string' ? message : 'invalid value',
  };
}

/** One header of a request as the SDK hands it over (a value may be a list). */
function headerValue(
  headers: Record<string, string | string[] | undefined> | undefined,
  name: string,
): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Runs a tool with the request's signal and a progress reporter bound to its progress token. */
function runTool(
  tool: CohortTool,
  args: unknown,
  token: string | number | undefined,
  extra: {
    signal: AbortSignal;
    sendNotification: (notification: ServerNotification) => Promise<void>;
  },
  span: TraceSpan,
): Promise<CallToolResult> {
  return tool.run(args, {
    signal: extra.signal,
    span,
    progress: async (progress, total, message) => {
      if (token === undefined) return;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, ...(total ? { total } : {}), message },
      });
    },
  });
}
