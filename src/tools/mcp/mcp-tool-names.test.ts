import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listingMcpServer } from '../../test/listing-mcp-server.js';
import { runCli } from '../../test/run-cli.js';
import { connectMcpServers, MAX_OFFERED_MCP_TOOLS, mcpTools, type McpClientPool } from './index.js';

// A server's tool names are the server's to choose, but the model's API takes only names of 1 to
// 64 letters, digits, "_" or "-" (OpenAI refuses any request whose tools break that, so one such
// tool failed every answer of every agent). Such tools, and a second tool of one name, are left
// out and reported; the server's other tools are offered.

/** A server whose tools/list returns `names`. */
const serverListing = (names: string[]) => listingMcpServer(names.map((name) => ({ name })));

describe('MCP tool names', () => {
  let pool: McpClientPool | undefined;
  afterEach(async () => {
    await pool?.close();
  });

  it('offers the model only tools whose name its API takes, once each, and reports the rest', async () => {
    const long = 'x'.repeat(60);
    pool = await connectMcpServers(
      { odd: serverListing(['ok', 'a\nb', 'has space', 'dotted.name', long, 'ok', 'also-ok_2']) },
      { timeoutMs: 30_000 },
    );
    const names = mcpTools(pool).map((tool) => tool.name);
    expect(names).toEqual(['mcp__odd__ok', 'mcp__odd__also-ok_2']);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const [status] = pool.statuses();
    expect(status?.status).toBe('connected');
    expect(status?.tools.map((tool) => tool.name)).toEqual(['ok', 'also-ok_2']);
    const skipped = status?.skippedTools ?? [];
    expect(skipped.map((tool) => tool.name)).toEqual([
      'a\nb',
      'has space',
      'dotted.name',
      long,
      'ok',
    ]);
    expect(skipped[0]?.reason).toMatch(/letters, digits, "_" or "-"/);
    expect(skipped[3]?.reason).toMatch(/64/);
    expect(skipped[4]?.reason).toMatch(/twice/);
  }, 60_000);

  it('offers at most MAX_OFFERED_MCP_TOOLS in all, in the order of the servers, and reports the rest', async () => {
    // OpenAI refuses a request whose tools are more than 128 ("Invalid 'tools': array too long"):
    // two servers of 80 tools each failed every model call of every agent.
    const names = (prefix: string) => Array.from({ length: 80 }, (_, i) => `${prefix}${i}`);
    pool = await connectMcpServers(
      { first: serverListing(names('a')), second: serverListing(names('b')) },
      { timeoutMs: 30_000 },
    );
    const offered = mcpTools(pool).map((tool) => tool.name);
    expect(offered).toHaveLength(MAX_OFFERED_MCP_TOOLS);
    expect(offered.slice(0, 80)).toEqual(names('a').map((name) => `mcp__first__${name}`));
    const [first, second] = pool.statuses();
    expect(first?.skippedTools).toBeUndefined();
    expect(second?.tools).toHaveLength(MAX_OFFERED_MCP_TOOLS - 80);
    const skipped = second?.skippedTools ?? [];
    expect(skipped).toHaveLength(160 - MAX_OFFERED_MCP_TOOLS);
    expect(skipped[0]?.name).toBe(`b${MAX_OFFERED_MCP_TOOLS - 80}`);
    expect(skipped[0]?.reason).toMatch(/at most 128 tools in a request/);
  }, 60_000);

  it('`cohort mcp list` names each tool it does not offer, quoted, and why', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-mcp-names-'));
    const config = join(cwd, 'mine.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { odd: serverListing(['ok', 'a\nb']) } }));
    const { code, stdout } = await runCli(['mcp', 'list', '--config', config], {}, undefined, {
      cwd,
    });
    expect(code).toBe(0);
    expect(stdout).toContain('  mcp__odd__ok');
    expect(stdout).toContain('  not offered: "a\\nb" — its name may hold only letters');
  }, 60_000);
});
