import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../test/fake-openai-server.js';
import { CohortConfig, hasModel } from '../config/index.js';
import { isCohortError } from '../errors/index.js';
import { createModelProvider, resolveModelId } from './model-provider.js';

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
