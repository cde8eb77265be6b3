import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { mcpTools } from './mcp-tools.js';

/** A pool of one tool whose every call answers `text`. */
const poolAnswering = (text: string) => ({
  tools: () => [
    {
      server: 'docs',
      tool: { name: 'dump', inputSchema: { type: 'object' } } as Tool,
      call: () => Promise.resolve({ content: [{ type: 'text' as const, text }] }),
    },
  ],
});

describe('an MCP tool call answer', () => {
  // Found by an outside tester: a server's answer (up to 10 MiB a message) went into the model's
  // prompt whole, where every other tool's output is cut to tools.maxOutputChars.
  it('is cut to maxOutputChars, 30,000 by default', async () => {
    const signal = new AbortController().signal;
    const [tool] = mcpTools(poolAnswering('x'.repeat(1_000_000)));
    const output = await tool!.execute({}, { signal });
    expect(output.length).toBeLessThan(30_100);
    expect(output).toContain('characters cut');
    const [small] = mcpTools(poolAnswering('y'.repeat(5_000)), { maxOutputChars: 1_000 });
    expect((await small!.execute({}, { signal })).length).toBeLessThan(1_100);
    const [short] = mcpTools(poolAnswering('short answer'));
    expect(await short!.execute({}, { signal })).toBe('short answer');
  });
});
