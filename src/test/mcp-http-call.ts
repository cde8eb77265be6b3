import { expect } from 'vitest';

/** What an MCP `tools/call` answers: the tool's content, and whether it failed. */
export interface McpToolResult {
  isError?: boolean;
  content: { text: string }[];
  structuredContent?: { run_id?: string };
}

/**
 * An MCP `tools/call` over HTTP, as an MCP client sends it to the server's `/mcp` under API key
 * `key`; the result of its SSE answer (the status must be 200).
 *
 * @example
 * const result = await mcpToolCall(app, 'key-a', 'ask', { query: 'What is a topic?' });
 */
export async function mcpToolCall(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  key: string,
  name: string,
  args: Record<string, unknown>,
): Promise<McpToolResult> {
  const res = await app.request('/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    }),
  });
  expect(res.status).toBe(200);
  const data = (await res.text()).split('\n').find((line) => line.startsWith('data: '));
  return (JSON.parse(data?.slice(6) ?? '{}') as { result: McpToolResult }).result;
}
