import { Hono, type Env } from 'hono';
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
 * Streamable HTTP MCP at `/mcp`, stateless: every POST gets its own server and transport, so any
 * process sharing the database can answer it (the same rule as the REST API). Mount it after the
 * server's auth middleware so the same bearer key guards it. Progress notifications stream back
 * as Server-Sent Events on the POST's response.
 *
 * @example
 * app.route('/', mcpRoutes(() => ({ assistant, retriever, store })));
 */
export function mcpRoutes<E extends Env>(parts: () => McpServerParts): Hono<E> {
  const app = new Hono<E>();
  app.post(MCP_PATH, async (c) => {
    // The MCP SDK loads with the first MCP request: a server (or `import('cohort')`) that is
    // never asked over MCP does not pay for it.
    const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
      import('./create-mcp-server.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    ]);
    const server = createMcpServer(parts());
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
    });
    await server.connect(transport);
    const close = () => void server.close();
    c.req.raw.signal.addEventListener('abort', close, { once: true });
    const response = await transport.handleRequest(c.req.raw);
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
