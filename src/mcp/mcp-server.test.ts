import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openAssistant, type OpenedAssistant } from '../assistant/index.js';
import { loadConfig } from '../config/index.js';
import { createResearchDependencies } from '../research/index.js';
import { EMPTY_QUERY_MESSAGE } from '../schema/index.js';
import { startServer, type RunningServer } from '../server/index.js';
import { testCli } from '../test/test-cli.js';
import { serveMcpStdio } from './serve-mcp-stdio.js';

// cohort's MCP server driven by the official SDK's own client: over streamable HTTP (the real
// server, behind its API key) and over stdio (`cohort mcp` as a child process), on the real
// sample book in an in-memory store.

const API_KEY = 'mcp-test-key';
const text = (result: CallToolResult) =>
  result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');

describe('cohort MCP server over streamable HTTP', () => {
  let opened: OpenedAssistant;
  let running: RunningServer;
  let client: Client;

  beforeAll(async () => {
    opened = await openAssistant({
      config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd: process.cwd() }),
    });
    const real = createResearchDependencies(opened.config, { store: opened.store });
    running = await startServer(opened, {
      server: { port: 0, host: '127.0.0.1', apiKey: API_KEY },
      handleSignals: false,
      close: opened.close,
      // Extractive research on the book alone: no web, no papers, nothing leaves the machine.
      research: { ...real, webSearch: undefined, paperSearches: [] },
    });
    client = new Client({ name: 'cohort-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${API_KEY}` } },
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await running?.close();
  });

  it('lists ask, route, search_book, research and one tool per agent', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['ask', 'route', 'search_book', 'research', 'ask_glossary']),
    );
    for (const agent of opened.assistant.agents().agents)
      expect(names).toContain(`ask_${agent.name}`);
    const ask = tools.find((tool) => tool.name === 'ask');
    expect(ask?.inputSchema.properties).toHaveProperty('session_id');
    expect(ask?.inputSchema.required).toEqual(['query']);
  });

  it('answers `ask` with citations as structured content', async () => {
    const result = (await client.callTool({
      name: 'ask',
      arguments: { query: 'What is a ROS 2 topic?' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      answer: string;
      citations: { index: number; source: string }[];
      agent_used: string;
    };
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.answer).toContain('[1]');
    expect(text(result)).toBe(answer.answer);
  });

  it('reports bad arguments as tool errors with the HTTP API messages', async () => {
    const cases = [{ query: '' }, { query: 'What is a topic?', session_id: 'not-a-uuid' }];
    for (const body of cases) {
      const http = await fetch(`${running.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
        body: JSON.stringify(body),
      });
      const { error } = (await http.json()) as { error: { message: string } };
      const result = (await client.callTool({ name: 'ask', arguments: body })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(error.message);
    }
    const empty = (await client.callTool({
      name: 'ask',
      arguments: { query: ' ' },
    })) as CallToolResult;
    expect(text(empty)).toBe(`query: ${EMPTY_QUERY_MESSAGE}`);
    const unknown = (await client.callTool({
      name: 'search_book',
      arguments: { query: 'topic', limit: 500 },
    })) as CallToolResult;
    expect(text(unknown)).toBe('limit must be a whole number from 1 to 50');
  });

  it('routes, searches one domain and answers through an agent tool', async () => {
    const route = (await client.callTool({
      name: 'route',
      arguments: { query: 'What GPU does the workstation need?' },
    })) as CallToolResult;
    expect(route.structuredContent).toMatchObject({ primary_agent: 'hardware' });
    const search = (await client.callTool({
      name: 'search_book',
      arguments: { query: 'GPU workstation', domain: 'hardware', limit: 2 },
    })) as CallToolResult;
    const passages = (search.structuredContent as { passages: { source: string }[] }).passages;
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(2);
    const glossary = (await client.callTool({
      name: 'ask_glossary',
      arguments: { query: 'What is a ROS 2 node?' },
    })) as CallToolResult;
    expect(glossary.structuredContent).toMatchObject({ agent_used: 'glossary' });
  });

  it('serves the ingested documents as resources, readable by section', async () => {
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(3);
    const first = resources[0]!;
    expect(first.uri).toMatch(/^cohort:\/\/docs\//);
    const whole = await client.readResource({ uri: first.uri });
    expect(whole.contents.length).toBeGreaterThan(0);
    const section = whole.contents[whole.contents.length - 1]!;
    expect(section.uri).toContain('?section=');
    const one = await client.readResource({ uri: section.uri });
    expect(one.contents).toHaveLength(1);
    expect(one.contents[0]).toMatchObject({
      uri: section.uri,
      text: (section as { text: string }).text,
    });
    await expect(client.readResource({ uri: 'cohort://docs/no/such/file.md' })).rejects.toThrow(
      /No ingested document "no\/such\/file.md"/,
    );
  });

  it('reports research progress per task and returns the report', async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = (await client.callTool(
      {
        name: 'research',
        arguments: {
          question: 'What is a ROS 2 topic and which GPU does the workstation need?',
          tasks: 2,
        },
      },
      undefined,
      { onprogress: (update) => progress.push(update) },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const response = result.structuredContent as { tasks: unknown[]; report: string };
    expect(response.tasks.length).toBe(2);
    expect(text(result)).toBe(response.report);
    const started = progress.filter((update) => /started/.test(update.message ?? ''));
    const finished = progress.filter((update) =>
      /task \S+ (done|failed|partial)/.test(update.message ?? ''),
    );
    expect(started).toHaveLength(2);
    expect(finished).toHaveLength(2);
    expect(progress.at(-1)).toMatchObject({ progress: 4, total: 4 });
  }, 60_000);

  it('answers params that do not fit tools/call with -32602 naming the field, not -32603', async () => {
    for (const [params, field] of [
      [{ name: 5, arguments: {} }, 'params.name'],
      [{ name: 'route', arguments: 'What is a topic?' }, 'params.arguments'],
    ] as const) {
      const response = await fetch(`${running.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${API_KEY}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
      });
      const line = (await response.text()).split('\n').find((l) => l.startsWith('data: '));
      const { error } = JSON.parse(line?.slice(6) ?? '{}') as {
        error?: { code: number; message: string };
      };
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain(`${field}:`);
    }
  });

  it('answers JSON that is no JSON-RPC message with -32600, and text that is not JSON with -32700', async () => {
    const post = (body: string) =>
      fetch(`${running.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${API_KEY}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      }).then(async (response) => ({
        status: response.status,
        reply: (await response.json()) as {
          id: unknown;
          error?: { code: number; message: string };
        },
      }));
    for (const body of [
      '{"hello": 1}',
      '[1, 2]',
      '"ping"',
      '[{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {}]',
      // An empty batch was 202 Accepted, as if notifications had been taken.
      '[]',
    ]) {
      const { status, reply } = await post(body);
      expect(status, body).toBe(400);
      expect(reply.id, body).toBeNull();
      expect(reply.error?.code, body).toBe(-32600);
      expect(reply.error?.message, body).toContain('not a JSON-RPC 2.0 message');
    }
    // Found by review: the REST API refused duplicate keys, MCP kept the last one without a word.
    for (const [body, key] of [
      ['{"jsonrpc": "2.0", "id": 1, "method": "ping", "method": "tools/list"}', '"method"'],
      [
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "route", "name": "ask"}}',
        '"name"',
      ],
    ]) {
      const { status, reply } = await post(body!);
      expect(status, body).toBe(400);
      expect(reply.error?.code, body).toBe(-32600);
      expect(reply.error?.message, body).toContain(key!);
      expect(reply.error?.message, body).toContain('once');
    }
    for (const body of ['{"jsonrpc": "2.0", "id": 1, "meth', '']) {
      const { status, reply } = await post(body);
      expect(status, body).toBe(400);
      expect(reply.error?.code, body).toBe(-32700);
    }
    // A valid request still gets its answer.
    const ping = await fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
    });
    expect(ping.status).toBe(200);
    expect(await ping.text()).toContain('"id":7');
  });

  it('answers a document URI it cannot read with -32602 naming why, not -32603', async () => {
    // A malformed escape was "-32603 URI malformed"; an unknown document -32603 too; a string
    // that is no URI at all "-32603 Invalid URL" (the SDK's new URL() threw before cohort's code).
    for (const [uri, message] of [
      ['', 'uri: "" is not a URI'],
      ['glossary.md', 'uri: "glossary.md" is not a URI'],
      ['cohort://docs/%E0%A4%A', 'is not a valid document URI'],
      ['cohort://docs/no-such-page.md', 'No ingested document "no-such-page.md"'],
      ['cohort://docs/glossary.md?section=No%20such%20section', 'has no section'],
    ] as const) {
      const error = await client.readResource({ uri }).then(
        () => undefined,
        (caught: unknown) => caught as { code?: number; message?: string },
      );
      expect(error?.code, uri).toBe(-32602);
      expect(error?.message, uri).toContain(message);
    }
  });

  it('needs the API key like the rest of the API', async () => {
    const anonymous = new Client({ name: 'no-key', version: '1.0.0' });
    await expect(
      anonymous.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`))),
    ).rejects.toThrow(/401|API key/);
  });
});

describe('cohort mcp over stdio', () => {
  it('lists the tools and answers `ask` with citations', async () => {
    const client = new Client({ name: 'cohort-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [testCli(), 'mcp'],
        env: { ...(process.env as Record<string, string>), COHORT_DATA_DIR: 'memory://' },
        stderr: 'pipe',
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['ask', 'route', 'search_book', 'research']));
      const result = (await client.callTool({
        name: 'ask',
        arguments: { query: 'What is a ROS 2 topic?' },
      })) as CallToolResult;
      const answer = result.structuredContent as { citations: unknown[] };
      expect(answer.citations.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  }, 120_000);
});

interface StdioReply {
  id: unknown;
  error?: { code: number; message: string };
  result?: object;
}

/** `cohort mcp` over stdio on the sample book, and the replies it has written, one per line. */
async function stdioServer(options: { searchDelayMs?: number; graceMs?: number } = {}) {
  const opened = await openAssistant({
    config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd: process.cwd() }),
  });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let output = '';
  stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const { retriever } = opened;
  // search_book waits first when asked to: a call still running when stdin closes.
  const slowRetriever: typeof retriever = {
    ...retriever,
    retrieve: async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, options.searchDelayMs ?? 0));
      return retriever.retrieve(...args);
    },
  };
  const served = serveMcpStdio(
    { assistant: opened.assistant, retriever: slowRetriever, store: opened.store },
    {
      stdin,
      stdout,
      stderr: new PassThrough(),
      ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
    },
  );
  const lines = () => output.split('\n').filter(Boolean);
  return {
    stdin,
    /** The first `count` replies, once written (what there is after 20 s). */
    async replies(count: number): Promise<StdioReply[]> {
      const deadline = Date.now() + 20_000;
      while (lines().length < count && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return lines().map((line) => JSON.parse(line) as StdioReply);
    },
    async close() {
      stdin.end();
      await served;
      await opened.close();
    },
  };
}

describe('cohort mcp over stdio, malformed lines', () => {
  it('answers a line that is not JSON or not JSON-RPC with a JSON-RPC error, and goes on', async () => {
    const { stdin, replies, close } = await stdioServer();
    try {
      stdin.write('{not json\n');
      stdin.write('[1, 2]\n');
      // Found by review: a key given twice was read as its last value without a word.
      stdin.write('{"jsonrpc": "2.0", "id": 8, "method": "ping", "method": "tools/list"}\n');
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' })}\n`);
      // The duplicate-key answer is written as the line is read, maybe before the SDK's answers.
      const all = await replies(4);
      const twice = all.find((reply) => JSON.stringify(reply).includes('once'));
      const [parse, invalid, ping] = all.filter((reply) => reply !== twice);
      expect(parse).toMatchObject({ id: null, error: { code: -32700 } });
      expect(invalid).toMatchObject({ id: null, error: { code: -32600 } });
      expect(twice).toMatchObject({ id: null, error: { code: -32600 } });
      expect(JSON.stringify(twice)).toContain('\\"method\\"');
      expect(ping).toMatchObject({ id: 7, result: {} });
    } finally {
      await close();
    }
  }, 60_000);
  it('answers large messages sent together, and refuses a line over 10 MiB, going on', async () => {
    // The SDK's transport reads into a 10 MiB buffer: three 4 MB pings in one write overflowed it
    // and were all lost without an answer, as was every message after an 11 MB line in its chunk.
    const { stdin, replies, close } = await stdioServer();
    const ping = (id: number, size: number) =>
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { _meta: { pad: 'a'.repeat(size) } } })}\n`;
    try {
      stdin.write(ping(1, 4_000_000) + ping(2, 4_000_000) + ping(3, 4_000_000));
      expect((await replies(3)).map((reply) => reply.id)).toEqual([1, 2, 3]);
      stdin.write(ping(4, 11 * 1024 * 1024) + ping(5, 10));
      const [, , , tooLong, after] = await replies(5);
      expect(tooLong).toMatchObject({ id: null, error: { code: -32600 } });
      expect(tooLong?.error?.message).toContain('10485760 bytes');
      expect(after).toMatchObject({ id: 5, result: {} });
    } finally {
      await close();
    }
  }, 60_000);
});

describe('cohort mcp over stdio, lines in many chunks', () => {
  it('reads a line arriving in 64 KiB chunks with work linear in its length', async () => {
    // Found from outside: every chunk re-measured and re-searched the whole line held so far, so
    // a line over 10 MiB cost about half a second of CPU per MB (40 MB in 64 KiB writes: 21 s of
    // CPU, the event loop blocked), and a 9 MB message about 4 s. The work is counted as the text
    // the splitter measures (Buffer.byteLength), not timed: about 2 GB for these 24 MB before.
    const { stdin, replies, close } = await stdioServer();
    try {
      await replies(0);
      const chunk = 'a'.repeat(64 * 1024);
      let measured = 0;
      const byteLength = Buffer.byteLength.bind(Buffer);
      const spy = vi.spyOn(Buffer, 'byteLength').mockImplementation((text, encoding) => {
        if (typeof text === 'string') measured += text.length;
        return byteLength(text, encoding);
      });
      const sent = 24 * 16 * chunk.length;
      try {
        for (let i = 0; i < 24 * 16; i += 1) stdin.write(chunk);
        stdin.write(`\n${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
        const [tooLong, ping] = await replies(2);
        expect(tooLong).toMatchObject({ id: null, error: { code: -32600 } });
        expect(ping).toMatchObject({ id: 1, result: {} });
      } finally {
        spy.mockRestore();
      }
      expect(measured).toBeLessThan(3 * sent);
    } finally {
      await close();
    }
  }, 120_000);
});

describe('cohort mcp over stdio, characters split between reads', () => {
  it('reads a character whose UTF-8 bytes arrive in two chunks whole', async () => {
    // Found from outside: each chunk of stdin was decoded on its own, so a character cut by a
    // chunk boundary (a pipe delivers 64 KiB at a time) became two U+FFFD in the message.
    const { stdin, replies, close } = await stdioServer();
    try {
      const line = Buffer.from(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nopé', arguments: {} } })}\n`,
      );
      const cut = line.indexOf(Buffer.from('é')) + 1;
      stdin.write(line.subarray(0, cut));
      await new Promise((resolve) => setTimeout(resolve, 50));
      stdin.write(line.subarray(cut));
      const [reply] = await replies(1);
      expect(reply).toMatchObject({ id: 1 });
      expect(JSON.stringify(reply)).toContain('nopé');
      expect(JSON.stringify(reply)).not.toContain('\ufffd');
    } finally {
      await close();
    }
  }, 60_000);
});

describe('cohort mcp over stdio, stdin closing', () => {
  it('resolves when the client has stopped reading stdout, though its answers cannot be written', async () => {
    // Found by review: the refusals were written to a pipe nobody drained, so the write waited
    // for ever and `cohort mcp` never exited.
    const opened = await openAssistant({
      config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd: process.cwd() }),
    });
    const stdin = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 1 }); // never read: every write waits
    const { retriever } = opened;
    const slowRetriever: typeof retriever = {
      ...retriever,
      retrieve: async (...args) => {
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        return retriever.retrieve(...args);
      },
    };
    try {
      const served = serveMcpStdio(
        { assistant: opened.assistant, retriever: slowRetriever, store: opened.store },
        { stdin, stdout, stderr: new PassThrough(), graceMs: 200, refusalWriteMs: 300 },
      );
      stdin.write('x'.repeat(64) + '\n'); // a malformed line: its error fills stdout's buffer
      stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'search_book', arguments: { query: 'URDF' } } })}\n`,
      );
      stdin.end();
      const outcome = await Promise.race([
        served.then(() => 'resolved'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 8_000)),
      ]);
      expect(outcome).toBe('resolved');
    } finally {
      await opened.close();
    }
  }, 60_000);
  it('answers the calls in flight when stdin closes, then resolves', async () => {
    // Found by outside testing: the client wrote its calls and closed stdin; the server closed the
    // connection at once, aborting the calls, which were never answered.
    const { stdin, replies, close } = await stdioServer({ searchDelayMs: 1_000 });
    const call = (id: number, name: string, args: object) =>
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;
    stdin.write(call(1, 'ask', { query: 'What is a ROS 2 node?' }));
    stdin.write(call(2, 'search_book', { query: 'URDF joints' }));
    stdin.write(call(3, 'search_book', { query: 'Isaac Sim' }));
    await close();
    const answered = await replies(3);
    expect(answered.map((reply) => reply.id).sort()).toEqual([1, 2, 3]);
    for (const reply of answered) expect(reply.result).toBeDefined();
  }, 60_000);
  it('answers a call still running after the grace time with an error, and nothing after it', async () => {
    const { stdin, replies, close } = await stdioServer({ searchDelayMs: 3_000, graceMs: 200 });
    stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'search_book', arguments: { query: 'URDF' } } })}\n`,
    );
    await close();
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const answered = await replies(1);
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({ id: 9, error: { code: -32001 } });
    expect(answered[0]?.error?.message).toContain('stdin closed');
  }, 60_000);
});
