import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, type McpServerParts } from './create-mcp-server.js';

/**
 * Serves cohort's MCP server over stdio (what Claude Desktop and Claude Code start) and resolves
 * when the client closes the connection. stdout carries only protocol messages; logs go to stderr.
 *
 * @example
 * await serveMcpStdio({ assistant, retriever, store });
 */
export async function serveMcpStdio(
  parts: McpServerParts,
  streams: { stdin?: Readable; stdout?: Writable } = {},
): Promise<void> {
  const server = createMcpServer(parts);
  const transport = new StdioServerTransport(streams.stdin, streams.stdout);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(transport);
  // stdin ending is the client hanging up.
  (streams.stdin ?? process.stdin).once('end', () => void server.close());
  await closed;
}
