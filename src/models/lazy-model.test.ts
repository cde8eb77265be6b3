import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { CohortConfig } from '../config/index.js';
import { lazyEmbeddingModel, lazyLanguageModel } from './lazy-model.js';
import { createModelProvider } from './model-provider.js';

const config = (model: Record<string, unknown>) => CohortConfig.parse({ model });

describe('models whose provider package loads on first call', () => {
  it("report the provider name and model id the AI SDK's own models report", () => {
    // The lazy models answer these before loading: a provider that renamed them would make
    // traces (gen_ai.provider.name) disagree with what the SDK says.
    const openai = createModelProvider(config({ apiKey: 'k', name: 'gpt-4o' }));
    const real = createOpenAI({ apiKey: 'k' });
    expect(openai.languageModel('full').provider).toBe(real.chat('gpt-4o').provider);
    const embedding = createModelProvider(
      config({ apiKey: 'k', name: 'gpt-4o', embeddingModel: 'text-embedding-3-small' }),
    ).embeddingModel?.();
    expect(embedding?.provider).toBe(real.embedding('text-embedding-3-small').provider);
    expect(embedding?.modelId).toBe('text-embedding-3-small');

    const compatible = createModelProvider(
      config({ baseUrl: 'http://127.0.0.1:9/v1', name: 'llama3', embeddingModel: 'nomic' }),
    );
    const realCompatible = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: 'http://127.0.0.1:9/v1',
    });
    expect(compatible.languageModel('full').provider).toBe(
      realCompatible.chatModel('llama3').provider,
    );
    expect(compatible.embeddingModel?.().provider).toBe(
      realCompatible.embeddingModel('nomic').provider,
    );
  });

  it('load nothing until called, once for many calls, and pass the call through', async () => {
    let loads = 0;
    const calls: unknown[] = [];
    const model = lazyLanguageModel('p.chat', 'm', async () => {
      loads++;
      return {
        specificationVersion: 'v3',
        provider: 'p.chat',
        modelId: 'm',
        supportedUrls: { 'image/*': [/^https:/] },
        doGenerate: async (options) => {
          calls.push(options.prompt);
          return {
            content: [{ type: 'text', text: 'hi' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: 1, text: 1, reasoning: 0 },
            },
            warnings: [],
          };
        },
        doStream: () => Promise.reject(new Error('not used')),
      } satisfies LanguageModelV3;
    });
    expect(loads).toBe(0);
    const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'q' }] }];
    const [a, b] = await Promise.all([model.doGenerate({ prompt }), model.doGenerate({ prompt })]);
    expect(a.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(b.content).toEqual(a.content);
    expect(loads).toBe(1);
    expect(calls).toEqual([prompt, prompt]);
    expect(await model.supportedUrls).toEqual({ 'image/*': [/^https:/] });
  });

  it('try a failed load again on the next call instead of failing for ever', async () => {
    let attempts = 0;
    const model = lazyEmbeddingModel('p.embedding', 'e', async () => {
      attempts++;
      if (attempts === 1) throw new Error('Cannot find package "@ai-sdk/openai"');
      return {
        specificationVersion: 'v3',
        provider: 'p.embedding',
        modelId: 'e',
        maxEmbeddingsPerCall: 8,
        supportsParallelCalls: true,
        doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 0]), warnings: [] }),
      };
    });
    await expect(model.doEmbed({ values: ['a'] })).rejects.toThrow(/Cannot find package/);
    expect(await model.maxEmbeddingsPerCall).toBe(8);
    expect((await model.doEmbed({ values: ['a', 'b'] })).embeddings).toHaveLength(2);
    expect(attempts).toBe(2);
  });
});
