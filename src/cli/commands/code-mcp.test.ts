import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../test/fake-openai-server.js';
import { CALC_MCP_SERVER } from '../../test/fixture-mcp-config.js';
import { runCli } from '../../test/run-cli.js';

// `cohort code` with a scripted model (over the OpenAI-compatible wire) calling the tools of an
// MCP server configured in the project's .mcp.json (a small stdio server written for the tests),
// under the permission rules: an allowed tool runs, a denied one is refused, one no rule names
// waits for a person.

const calc = CALC_MCP_SERVER;
// The workspace's .mcp.json is the test's own: its servers start without an approval.
const TRUSTED = { COHORT_TRUST_PROJECT_MCP: '1' };

interface ChatBody {
  tools?: { function: { name: string } }[];
  messages: { role: string; content: unknown }[];
}
const toolMessages = (model: FakeOpenAI, request: number) =>
  (model.requests[request]?.body as unknown as ChatBody).messages
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.stringify(message.content));

describe('cohort code with an MCP server', () => {
  let model: FakeOpenAI | undefined;
  afterEach(() => model?.close());

  const workspace = () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-code-mcp-'));
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { calc } }));
    return cwd;
  };

  it('runs an allowed MCP tool and refuses a denied one, the model reading both results', async () => {
    model = await startFakeOpenAI({
      chat: [
        { kind: 'tool_call', name: 'mcp__calc__add', arguments: '{"a":2,"b":40}' },
        { kind: 'tool_call', name: 'mcp__calc__whoami', arguments: '{}' },
        { kind: 'text', text: 'The sum is 42; whoami was refused.' },
      ],
    });
    const { code, stdout, stderr } = await runCli(
      [
        'code',
        'Add 2 and 40, then say who the calculator is.',
        '--allow',
        'mcp__calc__add',
        '--deny',
        'mcp__calc__whoami',
        '--json',
      ],
      { OPENAI_BASE_URL: model.baseUrl, COHORT_MODEL: 'scripted', ...TRUSTED },
      undefined,
      { cwd: workspace() },
    );
    expect(code, stderr).toBe(0);
    expect((JSON.parse(stdout) as { answer: string }).answer).toBe(
      'The sum is 42; whoami was refused.',
    );
    const offered = (model.requests[0]?.body as unknown as ChatBody).tools?.map(
      (tool) => tool.function.name,
    );
    expect(offered).toEqual(expect.arrayContaining(['mcp__calc__add', 'mcp__calc__whoami']));
    // The allowed call ran on the server; the denied one never reached it.
    expect(toolMessages(model, 1)).toEqual([expect.stringContaining('42')]);
    const refused = toolMessages(model, 2)[1] ?? '';
    expect(refused).toMatch(/denied/i);
    expect(refused).toContain('mcp__calc__whoami');
    expect(refused).not.toContain('calc-fixture');
  }, 90_000);

  it('pauses for a person on an MCP tool no rule names, and runs nothing', async () => {
    model = await startFakeOpenAI({
      chat: [{ kind: 'tool_call', name: 'mcp__calc__whoami', arguments: '{}' }],
    });
    const { stdout } = await runCli(
      ['code', 'Who is the calculator?', '--json'],
      { OPENAI_BASE_URL: model.baseUrl, COHORT_MODEL: 'scripted', ...TRUSTED },
      undefined,
      { cwd: workspace() },
    );
    const result = JSON.parse(stdout) as {
      finish_reason: string;
      pending?: { tool: string; always: string }[];
    };
    expect(result.finish_reason).toBe('interrupted');
    expect(result.pending).toEqual([
      expect.objectContaining({ tool: 'mcp__calc__whoami', always: 'mcp__calc__whoami' }),
    ]);
    expect(model.requests).toHaveLength(1);
  }, 90_000);
});
