import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../test/fake-openai-server.js';
import { CohortConfig, hasModel } from '../config/index.js';
import { isCohortError } from '../errors/index.js';
import { runLoop } from '../agents/loop/index.js';
import { invokeLlmWithRetry } from '../research/invoke-llm-with-retry.js';
import { z } from 'zod';
import { createModelProvider, resolveModelId } from './model-provider.js';
import { MAX_MODEL_RESPONSE_BYTES } from './response-byte-cap.js';

const config = (model: Record<string, unknown>) => CohortConfig.parse({ model });

describe('resolveModelId', () => {
  it('maps tiers to configured ids; fast falls back to full; anything else is a model id', () => {
    const tiers = config({
      apiKey: 'k',
      name: 'gpt-4o-mini',
      tiers: { full: 'gpt-4o', fast: 'gpt-4o-mini' },
    });
    expect(resolveModelId(tiers, 'full')).toBe('gpt-4o');
    expect(resolveModelId(tiers, 'fast')).toBe('gpt-4o-mini');
    expect(resolveModelId(tiers, 'llama3.1:8b')).toBe('llama3.1:8b');
    const plain = config({ apiKey: 'k', name: 'qwen2.5' });
    expect(resolveModelId(plain, 'fast')).toBe('qwen2.5');
    expect(() => resolveModelId(plain, ' ')).toThrow(/fast.*full.*model id/);
  });
});

describe('createModelProvider', () => {
  let server: FakeOpenAI | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('refuses to build a model when none is configured (extractive mode)', () => {
    const none = config({});
    expect(hasModel(none)).toBe(false);
    const provider = createModelProvider(none);
    expect(provider.describe()).toMatch(/extractive/);
    const error = (() => {
      try {
        provider.languageModel('full');
      } catch (e) {
        return e;
      }
    })();
    expect(isCohortError(error, 'model_not_configured')).toBe(true);
    expect((error as Error).message).toMatch(/OPENAI_API_KEY.*OPENAI_BASE_URL/);
  });

  it('uses OpenAI chat completions with only a key, and never shows the key', () => {
    const provider = createModelProvider(config({ apiKey: 'sk-secret', name: 'gpt-4o-mini' }));
    const model = provider.languageModel('full');
    expect(model.provider).toMatch(/^openai\.chat/);
    expect(model.modelId).toBe('gpt-4o-mini');
    expect(provider.languageModel('full')).toBe(model);
    expect(provider.describe()).toBe('OpenAI (full: gpt-4o-mini, fast: gpt-4o-mini)');
    expect(provider.embeddingModel).toBeUndefined();
  });

  it('talks to an OpenAI-compatible server at the base URL, without a key (Ollama) or with one', async () => {
    server = await startFakeOpenAI({
      chat: [
        { kind: 'text', text: 'hi' },
        { kind: 'text', text: 'hi' },
      ],
    });
    for (const apiKey of [undefined, 'local-key']) {
      const provider = createModelProvider(
        config({ baseUrl: server.baseUrl, name: 'llama3', ...(apiKey ? { apiKey } : {}) }),
      );
      const result = await provider
        .languageModel('fast')
        .doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] });
      expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    }
    expect(server.requests.map((r) => r.body.model)).toEqual(['llama3', 'llama3']);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[1]?.headers.authorization).toBe('Bearer local-key');
  });

  it('offers the embedding model named by COHORT_EMBEDDING_MODEL', () => {
    const provider = createModelProvider(
      config({ baseUrl: 'http://127.0.0.1:9/v1', embeddingModel: 'nomic-embed-text' }),
    );
    expect(provider.embeddingModel?.().modelId).toBe('nomic-embed-text');
    expect(provider.describe()).toContain('embeddings: nomic-embed-text');
  });
});

describe('the byte cap on model responses', () => {
  let server: FakeOpenAI | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  // Loopback socket buffers hold a few MB the client never read.
  const nearTheCap = (bytes: number) => {
    expect(bytes).toBeGreaterThan(MAX_MODEL_RESPONSE_BYTES);
    expect(bytes).toBeLessThan(MAX_MODEL_RESPONSE_BYTES + 16 * 1024 * 1024);
  };

  it('stops a streamed answer whose line never ends, as model_unavailable, without retrying it', async () => {
    // An unfinished line is no parsed text, so the 1,000,000-character cap never saw it: the SSE
    // parser buffered it until the heap ran out (cohort ask and cohort serve died).
    server = await startFakeOpenAI({ chat: [{ kind: 'endless' }, { kind: 'endless' }] });
    const provider = createModelProvider(config({ baseUrl: server.baseUrl, name: 'm' }));
    const error = await runLoop({
      model: provider.languageModel('full'),
      messages: [{ role: 'user', content: 'What is a ROS 2 topic?' }],
      maxSteps: 2,
      timeoutMs: 10_000,
      maxRetries: 1,
      retryDelayMs: 1,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'model_unavailable',
      message: `The model's response exceeded 8,000,000 bytes in one event of its stream without ending; cohort stopped reading it. Check the model server (OPENAI_BASE_URL).`,
    });
    expect(server.requests).toHaveLength(1);
    nearTheCap(server.endlessBytes);
  });

  it('counts a stream by its events: a long answer in small events passes a cap smaller than the stream', async () => {
    const text = 'ROS 2 topics carry messages between nodes. '.repeat(100);
    server = await startFakeOpenAI({ chat: [{ kind: 'text', text, pieces: 100 }] });
    const provider = createModelProvider(config({ baseUrl: server.baseUrl, name: 'm' }), {
      maxResponseBytes: 1000,
    });
    const result = await runLoop({
      model: provider.languageModel('full'),
      messages: [{ role: 'user', content: 'What is a ROS 2 topic?' }],
      maxSteps: 1,
      timeoutMs: 10_000,
    });
    expect(result.text).toBe(text);
  });

  it('stops a JSON answer that never ends (the research calls, not streamed) with the same error', async () => {
    server = await startFakeOpenAI({ chat: [{ kind: 'endless' }, { kind: 'endless' }] });
    const provider = createModelProvider(config({ baseUrl: server.baseUrl, name: 'm' }));
    const result = await invokeLlmWithRetry({
      model: provider.languageModel('fast'),
      system: 'Plan the research.',
      messages: [{ role: 'user', content: 'What is a ROS 2 topic?' }],
      schema: z.object({ tasks: z.array(z.string()) }),
      timeoutMs: 10_000,
      maxRetries: 1,
      signal: new AbortController().signal,
    });
    expect(result).toEqual({
      ok: false,
      attempts: 2,
      error: `The model's response exceeded 8,000,000 bytes without ending; cohort stopped reading it. Check the model server (OPENAI_BASE_URL).`,
    });
    expect(server.requests).toHaveLength(2);
    expect(server.endlessBytes).toBeGreaterThan(2 * MAX_MODEL_RESPONSE_BYTES);
    expect(server.endlessBytes).toBeLessThan(2 * MAX_MODEL_RESPONSE_BYTES + 32 * 1024 * 1024);
  });
});
