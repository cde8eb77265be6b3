import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  boundedMcpFetch,
  connectMcpServers,
  MCP_MAX_MESSAGE_BYTES,
  type McpClientPool,
} from './index.js';

// A remote MCP server (streamable HTTP) is someone else's: one that answers the handshake with an
// event or a JSON body that never ends grew cohort's memory by about 150 MB a second (2.4 GB in
// the 15 s connect bound; a tool call may run 120 s) until the process died. One message may hold
// MCP_MAX_MESSAGE_BYTES, as over stdio (the SDK's own cap there).

/** An HTTP MCP endpoint that answers every request with `head` and then `a`s for ever. */
function endlessServer(contentType: string, head: string): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': contentType });
      response.write(head);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('MCP over HTTP', () => {
  let pool: McpClientPool | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await pool?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  for (const [kind, contentType, head] of [
    [
      'an event',
      'text/event-stream',
      'event: message\ndata: {"jsonrpc":"2.0","id":0,"result":{"x":"',
    ],
    ['a JSON body', 'application/json', '{"jsonrpc":"2.0","id":0,"result":{"x":"'],
  ] as const) {
    it(`stops reading ${kind} that never ends at MCP_MAX_MESSAGE_BYTES, naming the server`, async () => {
      server = await endlessServer(contentType, head);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const started = Date.now();
      pool = await connectMcpServers({ remote: { url, headers: {} } }, { timeoutMs: 60_000 });
      const [status] = pool.statuses();
      expect(status?.status).toBe('failed');
      expect(status?.error).toMatch(
        new RegExp(`more than ${MCP_MAX_MESSAGE_BYTES / 1024 / 1024} MiB in one message`),
      );
      expect(Date.now() - started).toBeLessThan(30_000);
    }, 90_000);
  }

  it('bounds each event of a stream, not the stream: many small events pass whole', async () => {
    const events = Array.from(
      { length: 50 },
      (_, i) => `event: message\r\ndata: {"n":${i}}\r\n\r\n`,
    );
    const stream = events.join('');
    const fetchStream = () =>
      Promise.resolve(new Response(stream, { headers: { 'content-type': 'text/event-stream' } }));
    const bounded = boundedMcpFetch('s', { limit: 64, fetch: fetchStream });
    expect(await (await bounded('http://x/mcp')).text()).toBe(stream);
    const cuts: string[] = [];
    const oneBig = boundedMcpFetch('s', {
      limit: 64,
      fetch: () =>
        Promise.resolve(
          new Response(`data: ${'a'.repeat(100)}\n\n`, {
            headers: { 'content-type': 'text/event-stream' },
          }),
        ),
      onTooLarge: (error) => void cuts.push(error.message),
    });
    await expect((await oneBig('http://x/mcp')).text()).rejects.toThrow(/MCP server "s" sent more/);
    expect(cuts).toHaveLength(1);
  });
});
