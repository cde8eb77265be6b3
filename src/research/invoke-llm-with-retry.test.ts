import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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

  it('returns the error after the last attempt when the model never answers with an object', async () => {
    const model = createScriptedModel(() => ({
      toolCalls: [{ toolName: 'search', input: { query: 'topic' } }],
    }));
    const result = await invokeLlmWithRetry(options(model));
    expect(result).toMatchObject({ ok: false, attempts: 2 });
    expect(result.ok || result.error).toMatch(/No output generated/);
  });
});
