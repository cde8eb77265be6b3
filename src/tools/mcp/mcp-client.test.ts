import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, runLoop } from '../../agents/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../../test/fake-openai-server.js';
import { CALC_MCP_SERVER } from '../../test/fixture-mcp-config.js';
import { runCli } from '../../test/run-cli.js';
import { loadConfig } from '../../config/index.js';
import { createScriptedModel } from '../../test/scripted-model.js';
import { connectMcpServers, mcpTools, type McpClientPool } from './index.js';

// cohort as an MCP client, against a small MCP server written for the tests (stdio, started by
// the SDK's own client transport) and one that cannot start.

const calc = CALC_MCP_SERVER;
const broken = { command: join(tmpdir(), 'no-such-mcp-server'), args: [], env: {} };

describe('MCP client', () => {
  let pool: McpClientPool | undefined;
  let model: FakeOpenAI | undefined;
  afterEach(async () => {
    await pool?.close();
    await model?.close();
  });

  it('connects, lists tools as mcp__<server>__<tool>, and reports a server that fails to start', async () => {
    pool = await connectMcpServers({ calc, broken }, { timeoutMs: 30_000 });
    const [ok, failed] = pool.statuses();
    expect(ok).toMatchObject({ name: 'calc', transport: 'stdio', status: 'connected' });
    expect(ok?.tools.map((tool) => tool.name).sort()).toEqual(['add', 'crash', 'whoami']);
    expect(failed).toMatchObject({ name: 'broken', status: 'failed' });
    expect(failed?.error).toMatch(/did not start/);
    const tools = mcpTools(pool);
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'mcp__calc__add',
      'mcp__calc__crash',
      'mcp__calc__whoami',
    ]);
    const whoami = tools.find((tool) => tool.name === 'mcp__calc__whoami')!;
    // The server got its own env entry, not the whole environment of cohort.
    expect(await whoami.execute({}, { signal: new AbortController().signal })).toBe('calc-fixture');
  }, 60_000);

  it('reports a server that starts but never answers as failed once the connect bound passes', async () => {
    // A process that reads nothing and writes nothing: the MCP handshake never completes.
    const silent = {
      command: process.execPath,
      args: ['-e', 'setInterval(() => {}, 1000)'],
      env: {},
    };
    const started = Date.now();
    pool = await connectMcpServers({ silent }, { timeoutMs: 300 });
    expect(pool.statuses()[0]).toMatchObject({
      name: 'silent',
      status: 'failed',
      error: 'did not start: no answer within 300 ms',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('ends every process of a server started through a wrapper when it closes', async () => {
    // 'sh -c' starts the real server as its child; signalling only the process cohort started
    // left that child running with the other end of stdout, and `cohort mcp list` never exited.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-mcp-wrapper-'));
    const pidFile = join(dir, 'child.pid');
    const wrapped = {
      command: '/bin/sh',
      args: ['-c', `sleep 300 & echo $! > ${pidFile}; wait`],
      env: {},
    };
    const started = Date.now();
    pool = await connectMcpServers({ wrapped }, { timeoutMs: 500 });
    expect(pool.statuses()[0]).toMatchObject({ status: 'failed' });
    const child = Number(readFileSync(pidFile, 'utf8'));
    const alive = () => {
      try {
        process.kill(child, 0);
        return readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('names a url that is not http or https, instead of "fetch failed"', async () => {
    pool = await connectMcpServers({ local: { url: 'file:///etc/passwd', headers: {} } });
    expect(pool.statuses()[0]?.error).toBe(
      'did not start: "file:///etc/passwd" is not an http or https URL (a streamable HTTP server\'s address, e.g. http://127.0.0.1:8787/mcp).',
    );
  });

  it('does not start a server whose ${VAR} is not set, naming the variable', async () => {
    // An unset variable without a default became '': 'Bearer ${DOCS_TOKEN}' was sent as
    // 'Bearer ', a token as an empty string, and the server's own error named nothing of it.
    // Claude Code refuses such a definition; cohort leaves that server out, saying why.
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-mcp-env-'));
    writeFileSync(
      join(cwd, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          docs: {
            url: 'http://127.0.0.1:9/mcp',
            headers: { Authorization: 'Bearer ${DOCS_TOKEN}' },
          },
          tool: { command: '${TOOL:-/bin/true}', args: ['--key=${KEY}'], env: {} },
        },
      }),
    );
    const env = { COHORT_TRUST_PROJECT_MCP: '1', KEY: 'k1' };
    const { mcpServers } = loadConfig({ env, cwd });
    expect(mcpServers.tool).toMatchObject({ command: '/bin/true', args: ['--key=k1'] });
    pool = await connectMcpServers(mcpServers, { timeoutMs: 10_000 });
    const docs = pool.statuses().find((status) => status.name === 'docs');
    expect(docs?.status).toBe('failed');
    expect(docs?.error).toBe(
      'did not start: ${DOCS_TOKEN} is not set in the environment: set it, or give the definition a default (${DOCS_TOKEN:-value}).',
    );
  }, 30_000);

  it("names the end of a server's stderr when it did not start", async () => {
    const failing = {
      command: '/bin/sh',
      args: ['-c', 'echo "Error: the API token is missing" >&2; exit 1'],
      env: {},
    };
    pool = await connectMcpServers({ failing }, { timeoutMs: 10_000 });
    expect(pool.statuses()[0]?.error).toContain('Error: the API token is missing');
  }, 30_000);

  it('drops the tools of a server that dies mid-run; the run goes on', async () => {
    pool = await connectMcpServers({ calc }, { timeoutMs: 30_000 });
    const tools = mcpTools(pool).map((tool) => defineTool(tool));
    const scripted = createScriptedModel((call) =>
      call === 0
        ? { toolCalls: [{ toolName: 'mcp__calc__crash', input: {} }] }
        : call === 1
          ? { toolCalls: [{ toolName: 'mcp__calc__add', input: { a: 2, b: 3 } }] }
          : { text: ['The server is gone.'] },
    );
    const result = await runLoop({
      model: scripted,
      messages: [{ role: 'user', content: 'crash it' }],
      tools,
      maxSteps: 4,
      timeoutMs: 30_000,
    });
    expect(result.finishReason).toBe('stop');
    expect(result.toolCalls.map((call) => call.isError)).toEqual([true, true]);
    expect(String(result.toolCalls[1]?.output)).toMatch(/no longer running/);
    expect(pool.statuses()[0]).toMatchObject({ status: 'closed' });
    expect(pool.tools()).toHaveLength(0);
  }, 60_000);

  it("gives a model-backed agent the servers of the project's .mcp.json", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-mcp-'));
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { calc } }));
    model = await startFakeOpenAI({
      chat: [
        { kind: 'tool_call', name: 'mcp__calc__add', arguments: '{"a":2,"b":40}' },
        { kind: 'text', text: 'The sum is 42.' },
      ],
    });
    const { code, stdout } = await runCli(
      ['ask', 'What is 2 plus 40 in the book?', '--json'],
      { OPENAI_BASE_URL: model.baseUrl, COHORT_MODEL: 'scripted', COHORT_TRUST_PROJECT_MCP: '1' },
      undefined,
      { cwd },
    );
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { answer: string }).answer).toContain('The sum is 42.');
    const first = model.requests[0]?.body as { tools: { function: { name: string } }[] };
    expect(first.tools.map((tool) => tool.function.name)).toContain('mcp__calc__add');
    const second = model.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    const toolMessage = second.messages.find((message) => message.role === 'tool');
    expect(JSON.stringify(toolMessage?.content)).toContain('42');
  }, 90_000);

  it('`cohort mcp list` shows each server, its status and tools', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-mcp-'));
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { calc, broken } }));
    const { code, stdout } = await runCli(
      ['mcp', 'list'],
      { COHORT_TRUST_PROJECT_MCP: '1' },
      undefined,
      { cwd },
    );
    expect(code).toBe(1);
    expect(stdout).toContain('calc (stdio, trusted): connected');
    expect(stdout).toContain('  mcp__calc__add  Adds two numbers.');
    expect(stdout).toMatch(/broken \(stdio, trusted\): failed — did not start/);
  }, 60_000);

  it('rejects a malformed server entry, naming it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-mcp-'));
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { 'bad name': calc } }));
    const { code, stderr } = await runCli(['mcp', 'list'], {}, undefined, { cwd });
    expect(code).toBe(2);
    expect(stderr).toMatch(/mcpServers/);
  });
});
