import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createPermissionPolicy } from '../tools/permissions/index.js';
import { doc, testContext, testState } from '../test/research-fakes.js';
import { createScriptedModel, promptText } from '../test/scripted-model.js';
import { analysisNode } from './analysis-node.js';
import {
  connectResearchMcpTools,
  researchToolRefusal,
  type ResearchMcpTools,
} from './research-mcp-tools.js';
import { TOOL_GATHERING_PROMPT } from './tool-gathering.js';

// Research subagents get the configured MCP servers' tools under the permission rules (a small
// stdio MCP server written for the tests; scripted analysis model over the real loop).

const FIXTURE = fileURLToPath(new URL('../test/fixture-mcp-server.ts', import.meta.url));
const calc = {
  command: process.execPath,
  args: ['--import', 'tsx', FIXTURE],
  env: { FIXTURE_NAME: 'calc-fixture' },
  cwd: process.cwd(),
};

const gathered = testState('What is 2 plus 40 for the robot arm?', {
  internalResult: {
    sources: [doc('arm-1', 'internal', 'The robot arm has two joints and forty sensors.')],
  },
});
const offered = (options: LanguageModelV3CallOptions) =>
  (options.tools ?? []).map((tool) => tool.name).sort();

describe('MCP tools for research subagents', () => {
  let mcp: ResearchMcpTools | undefined;
  afterEach(() => mcp?.close());

  const connect = (permissions: { allow?: string[]; deny?: string[] }) =>
    connectResearchMcpTools(
      loadConfig({
        env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
        cwd: mkdtempSync(join(tmpdir(), 'cohort-research-mcp-')),
        overrides: { mcpServers: { calc }, permissions },
      }),
    );

  it('offers the allowed tools to the analysis model, which reads their results', async () => {
    mcp = await connect({ allow: ['mcp__calc__add'], deny: ['mcp__calc__crash'] });
    // whoami is named by no rule: research cannot ask a person, so it is not offered.
    expect(mcp?.tools.map((tool) => tool.name)).toEqual(['mcp__calc__add']);
    const model = createScriptedModel(
      (call, options) => {
        const text = promptText(options);
        if (text.includes(TOOL_GATHERING_PROMPT))
          return call === 0
            ? { toolCalls: [{ toolName: 'mcp__calc__add', input: { a: 2, b: 40 } }] }
            : { text: 'done' };
        return {
          text: JSON.stringify({
            summary: 'The sum is 42 [1].',
            citations: [{ index: 1, claim: 'two joints' }],
            reasoning: 'add tool',
          }),
        };
      },
      { record: true },
    );
    const context = testContext({ model, tools: mcp?.tools ?? [] });
    const finding = (await analysisNode(gathered, context)).subagentFindings?.[0];
    expect(finding).toMatchObject({ mode: 'model', summary: 'The sum is 42 [1].' });
    expect(offered(model.calls[0]!)).toEqual(['mcp__calc__add']);
    // The server's answer reached the analysis as tool results, marked as data.
    const analysis = promptText(model.calls.at(-1)!);
    expect(analysis).toContain('Results of the tools you called');
    expect(analysis).toMatch(/mcp__calc__add \{"a":2,"b":40\}:\n42/);
    expect(context.tokens.total).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a call the rules deny or would ask about, saying why', () => {
    const policy = createPermissionPolicy([
      { allow: ['mcp__calc__add'], deny: ['mcp__calc__crash'] },
    ]);
    expect(researchToolRefusal(policy, 'mcp__calc__add', {}, process.cwd())).toBeUndefined();
    expect(researchToolRefusal(policy, 'mcp__calc__crash', {}, process.cwd())).toMatch(
      /^Permission denied/,
    );
    expect(researchToolRefusal(policy, 'mcp__calc__whoami', {}, process.cwd())).toMatch(
      /cannot ask a person/,
    );
  });

  it('starts no server without a model', async () => {
    const config = loadConfig({
      env: {},
      cwd: mkdtempSync(join(tmpdir(), 'cohort-research-mcp-')),
      overrides: { mcpServers: { calc }, permissions: { allow: ['mcp__calc'] } },
    });
    expect(await connectResearchMcpTools(config)).toBeUndefined();
  });
});
