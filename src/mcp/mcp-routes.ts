import { Hono, type Context, type Env } from 'hono';
import { duplicateKeyMessage, findDuplicateKey } from '../schema/index.js';
import type { McpServerParts } from './create-mcp-server.js';

/** The path cohort serves MCP on, beside its REST API. */
export const MCP_PATH = '/mcp';

/** A JSON-RPC error answer for a request the stateless endpoint does not take. */
const methodNotAllowed = () =>
  new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message:
          'cohort serves MCP statelessly: send JSON-RPC requests with POST; there is no session stream to GET or DELETE.',
      },
      id: null,
    }),
    { status: 405, headers: { 'content-type': 'application/json', allow: 'POST' } },
  );

/**
 * A JSON-RPC 2.0 "Invalid Request" (-32600): the body is JSON but not a JSON-RPC message. The
 * SDK's transport answers such a body with -32700 "Parse error", which JSON-RPC 2.0 §5.1 keeps
 * for text that is not JSON, so a client cannot tell a truncated body from a wrong shape.
 */
const invalidRequest = (what: string) =>
  new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32600, message: `Invalid Request: ${what}` },
      id: null,
    }),
    { status: 400, headers: { 'content-type': 'application/json' } },
  );

/** The body as JSON, or undefined when it is not JSON (the transport then answers -32700). */
function parsedJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Streamable HTTP MCP at `/mcp`, stateless: every POST gets its own server and transport, so any
 * process sharing the database can answer it (the same rule as the REST API). Mount it after the
 * server's auth middleware so the same bearer key guards it. Progress notifications stream back
 * as Server-Sent Events on the POST's response. `parts` is called per request with its context,
 * so the tools can act for the request's caller (its API key owns the sessions it starts).
 *
 * @example
 * app.route('/', mcpRoutes(() => ({ assistant, retriever, store })));
 */
export function mcpRoutes<E extends Env>(parts: (c: Context<E>) => McpServerParts): Hono<E> {
  const app = new Hono<E>();
  app.post(MCP_PATH, async (c) => {
    // The MCP SDK loads with the first MCP request: a server (or `import('cohort')`) that is
    // never asked over MCP does not pay for it.
    const [
      { createMcpServer },
      { WebStandardStreamableHTTPServerTransport },
      { JSONRPCMessageSchema },
    ] = await Promise.all([
      import('./create-mcp-server.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    // Read once here (the server's body limit has bounded it) and handed to the transport parsed,
    // so a body that is JSON but no JSON-RPC message is told apart from one that is not JSON.
    const text = await c.req.text();
    const sent = parsedJson(text);
    // `{"name":"ask","name":"route"}` says two things; JSON.parse would keep the second without a
    // word (the REST API refuses it the same way).
    const duplicate = sent && findDuplicateKey(text, sent.value);
    if (duplicate)
      return invalidRequest(
        `the body gives ${duplicateKeyMessage(duplicate)}: give each key of an object once.`,
      );
    // JSON-RPC 2.0 §6: an empty batch is one Invalid Request; the transport found no request in
    // it and answered 202 Accepted, as if notifications had been taken.
    if (Array.isArray(sent?.value) && sent.value.length === 0)
      return invalidRequest(
        'an empty batch is not a JSON-RPC 2.0 message; send {"jsonrpc": "2.0", "id", "method", "params"}, or an array of at least one.',
      );
    const messages: unknown[] = Array.isArray(sent?.value) ? sent.value : [sent?.value];
    const wrong = sent ? messages.findIndex((m) => !JSONRPCMessageSchema.safeParse(m).success) : -1;
    const server = createMcpServer(parts(c));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
    });
    await server.connect(transport);
    const close = () => void server.close();
    c.req.raw.signal.addEventListener('abort', close, { once: true });
    const response = await transport.handleRequest(
      c.req.raw,
      sent ? { parsedBody: sent.value } : undefined,
    );
    // Only where the transport came to judge the messages (after its Accept and content-type
    // checks, which keep their own answers): its -32700 for them becomes -32600.
    if (wrong >= 0 && response.status === 400) {
      close();
      const issue = Array.isArray(sent?.value)
        ? `item ${wrong} of the batch`
        : 'the body is JSON of another shape';
      return invalidRequest(
        `not a JSON-RPC 2.0 message (${issue}); send {"jsonrpc": "2.0", "id", "method", "params"}, or an array of them.`,
      );
    }
    if (!response.body) {
      close();
      return response;
    }
    // The server lives as long as its answer streams: closed once the last event is written.
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({ flush: close }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  });
  app.on(['GET', 'DELETE'], MCP_PATH, () => methodNotAllowed());
  return app;
}
