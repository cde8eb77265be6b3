// A small MCP server for the client's tests, over stdio: `add` (two numbers), `whoami` (the
// FIXTURE_NAME environment variable it was started with) and `crash` (the process exits mid-call,
// as a server that dies mid-run would).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'fixture', version: '1.0.0' });
server.registerTool(
  'add',
  {
    description: 'Adds two numbers.',
    inputSchema: { a: z.number(), b: z.number() },
  },
  ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);
server.registerTool('whoami', { description: 'Says the name it was given.' }, () => ({
  content: [{ type: 'text', text: process.env.FIXTURE_NAME ?? 'nobody' }],
}));
server.registerTool('crash', { description: 'Exits the server process.' }, () => {
  process.exit(3);
});
await server.connect(new StdioServerTransport());
