import { afterEach, describe, expect, it } from 'vitest';
import { listingMcpServer } from '../../test/listing-mcp-server.js';
import { connectMcpServers, mcpTools, type McpClientPool } from './index.js';

// The model's arguments to an MCP tool are checked against the schema the server lists, on the
// main thread. A server's schema is the server's (a remote one's, over HTTP), and the arguments
// the model's: a `pattern` that backtracks ((a+)+$) against a model's long string blocked the
// process (every request of cohort serve) for minutes to hours, and a `$ref` to itself threw
// "Maximum call stack size exceeded" out of the check, failing the run. The server checks its own
// input: cohort checks the shape, never runs a server's regular expression, and a schema it
// cannot apply leaves the check to the server.

describe('MCP tool input', () => {
  let pool: McpClientPool | undefined;
  afterEach(async () => {
    await pool?.close();
  });

  async function toolWith(inputSchema: Record<string, unknown>) {
    pool = await connectMcpServers(
      { srv: listingMcpServer([{ name: 't', inputSchema }]) },
      { timeoutMs: 30_000 },
    );
    const [tool] = mcpTools(pool);
    if (!tool) throw new Error('the server listed no tool');
    return tool;
  }

  it("does not run a server's backtracking pattern against the model's argument", async () => {
    const tool = await toolWith({
      type: 'object',
      properties: { a: { type: 'string', pattern: '(a+)+$' } },
      patternProperties: { '(b+)+$': { type: 'string' } },
    });
    const started = Date.now();
    const hostile = `${'a'.repeat(26)}!`;
    expect(tool.inputSchema.safeParse({ a: hostile }).success).toBe(true);
    expect(tool.inputSchema.safeParse({ [`${'b'.repeat(26)}!`]: 'x' }).success).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    // The shape is still checked, and the model still reads the server's schema.
    const wrong = tool.inputSchema.safeParse({ a: 5 });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({
      path: ['a'],
      message: expect.stringMatching(/string/),
    });
    expect(JSON.stringify(tool.inputJsonSchema)).toContain('(a+)+$');
  }, 60_000);

  it('leaves the check of a schema that refers to itself to the server, without throwing', async () => {
    const tool = await toolWith({
      type: 'object',
      $defs: { x: { $ref: '#/$defs/x' } },
      properties: { a: { $ref: '#/$defs/x' } },
    });
    expect(() => tool.inputSchema.safeParse({ a: { a: 1 } })).not.toThrow();
    expect(tool.inputSchema.safeParse({ a: { a: 1 } }).success).toBe(true);
  }, 60_000);
});
