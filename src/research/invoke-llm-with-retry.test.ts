import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../config/index.js';
import { createModelProvider } from '../models/index.js';
import { startFakeOpenAI } from '../test/fake-openai-server.js';
import { createScriptedModel } from '../test/scripted-model.js';
import { invokeLlmWithRetry } from './invoke-llm-with-retry.js';

const Plan = z.object({ tasks: z.array(z.string()) });
const options = (model: ReturnType<typeof createScriptedModel>) => ({
  model,
  system: 'Plan the research.',
  messages: [{ role: 'user' as const, content: 'What is a ROS 2 topic?' }],
  schema: Plan,
  timeoutMs: 5_000,
  maxRetries: 1,
  signal: new AbortController().signal,
});

describe('invokeLlmWithRetry', () => {
  it('retries, instead of throwing, when the model answers with a tool call and no object', async () => {
    // The AI SDK's `output` throws NoOutputGeneratedError for such an answer: POST /research
    // answered 500 when the planning model called a tool.
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search', input: { query: 'topic' } }] },
      { text: '{"tasks":["What is a ROS 2 topic"]}' },
    ]);
    const result = await invokeLlmWithRetry(options(model));
    expect(result).toMatchObject({
      ok: true,
      attempts: 2,
      value: { tasks: ['What is a ROS 2 topic'] },
    });
  });

  it('counts a negative token count the server reports as none', async () => {
    // The count went into the run's totals as sent: -1,000,000 tokens took that off them.
    const model = createScriptedModel([
      {
        text: '{"tasks":["What is a ROS 2 topic"]}',
        usage: { inputTokens: -1_000_000, outputTokens: 7 },
      },
    ]);
    const counted: unknown[] = [];
    await invokeLlmWithRetry({ ...options(model), onUsage: (tokens) => counted.push(tokens) });
    expect(counted).toEqual([{ input: 0, output: 7, total: 7 }]);
  });

  it('reads a tool call with arguments nested 5,000 deep as an answer without an object', async () => {
    // The AI SDK deep-clones a call's parsed arguments with its step: the stack overflowed, and
    // the analysis failed with "Maximum call stack size exceeded".
    const deep = `{"q":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const server = await startFakeOpenAI({
      chat: [{ kind: 'tool_call', name: 'search', arguments: deep }],
    });
    try {
      const config = loadConfig({ env: { OPENAI_BASE_URL: server.baseUrl } });
      const model = createModelProvider(config).languageModel('full');
      const result = await invokeLlmWithRetry({
        ...options(createScriptedModel([])),
        model,
        maxRetries: 0,
      });
      expect(result).toMatchObject({ ok: false, attempts: 1 });
      expect(result.ok || result.error).toMatch(/ended with "tool-calls" and held no JSON object/);
    } finally {
      await server.close();
    }
  });

  it('reads an answer of JSON nested 5,000 deep as one that cannot be used, and retries', async () => {
    // The AI SDK stringified the value that failed the schema into its error: the stack overflowed.
    const model = createScriptedModel(
      [
        { text: `{"tasks":${'['.repeat(5000)}${']'.repeat(5000)}}` },
        { text: '{"tasks":["What is a ROS 2 topic"]}' },
      ],
      { record: true },
    );
    const result = await invokeLlmWithRetry(options(model));
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    const retry = JSON.stringify(model.calls[1]?.prompt ?? '');
    expect(retry).toContain('nested more than 64 levels deep');
  });

  it('returns the error after the last attempt when the model never answers with an object', async () => {
    const model = createScriptedModel(() => ({
      toolCalls: [{ toolName: 'search', input: { query: 'topic' } }],
    }));
    const result = await invokeLlmWithRetry(options(model));
    expect(result).toMatchObject({ ok: false, attempts: 2 });
    expect(result.ok || result.error).toMatch(/No output generated/);
  });
});
