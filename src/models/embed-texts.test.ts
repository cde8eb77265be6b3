import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, vectorOf, type FakeOpenAI } from '../test/fake-openai-server.js';
import { CohortConfig } from '../config/index.js';
import { embedTexts, isEmbeddingError } from './embed-texts.js';
import { createModelProvider } from './model-provider.js';

describe('embedTexts', () => {
  let server: FakeOpenAI | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const providerFor = (baseUrl: string) =>
    createModelProvider(CohortConfig.parse({ model: { baseUrl, embeddingModel: 'embed-small' } }));

  it('embeds in batches and returns vectors in input order', async () => {
    server = await startFakeOpenAI();
    const texts = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const vectors = await embedTexts(providerFor(server.baseUrl), texts, { batchSize: 2 });
    expect(vectors).toEqual(texts.map((text) => vectorOf(text, 8)));
    expect(server.requests.map((r) => r.body.input)).toEqual([
      ['alpha', 'beta'],
      ['gamma', 'delta'],
      ['epsilon'],
    ]);
    expect(server.requests[0]?.body.model).toBe('embed-small');
  });

  it('retries a 503 and then succeeds', async () => {
    server = await startFakeOpenAI({
      embeddings: [{ kind: 'status', status: 503 }, { kind: 'vectors' }],
    });
    const vectors = await embedTexts(providerFor(server.baseUrl), ['one'], { retryDelayMs: 1 });
    expect(vectors).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('fails with an EmbeddingError after timeouts use up the retries', async () => {
    server = await startFakeOpenAI({ embeddings: [{ kind: 'hang' }, { kind: 'hang' }] });
    const error = await embedTexts(providerFor(server.baseUrl), ['one'], {
      timeoutMs: 100,
      maxRetries: 1,
      retryDelayMs: 1,
    }).catch((e: unknown) => e);
    expect(isEmbeddingError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'timeout', batchStart: 0 });
    expect(server.requests).toHaveLength(2);
  });

  it('refuses vectors of different lengths, or empty ones, from a broken server', async () => {
    server = await startFakeOpenAI({
      embeddings: [
        { kind: 'vectors', dimensions: 8 },
        { kind: 'vectors', dimensions: 13 },
        { kind: 'vectors', dimensions: 0 },
      ],
    });
    const provider = providerFor(server.baseUrl);
    const mixed = await embedTexts(provider, ['a', 'b', 'c'], { batchSize: 2 }).catch(
      (e: unknown) => e,
    );
    expect(isEmbeddingError(mixed)).toBe(true);
    expect(mixed).toMatchObject({ code: 'model_unavailable', batchStart: 2 });
    expect((mixed as Error).message).toMatch(/13 numbers.*8/);
    const empty = await embedTexts(provider, ['d']).catch((e: unknown) => e);
    expect(empty).toMatchObject({ name: 'EmbeddingError', code: 'model_unavailable' });
  });

  it('fails without retrying on a client error, and when no embedding model is configured', async () => {
    server = await startFakeOpenAI({
      embeddings: [{ kind: 'status', status: 400, message: 'input too long' }],
    });
    const error = await embedTexts(providerFor(server.baseUrl), ['one']).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'EmbeddingError', code: 'model_unavailable' });
    expect((error as Error).message).toContain('input too long');
    expect(server.requests).toHaveLength(1);

    const none = createModelProvider(CohortConfig.parse({ model: { apiKey: 'k' } }));
    await expect(embedTexts(none, ['x'])).rejects.toMatchObject({ code: 'model_not_configured' });
    expect(await embedTexts(none, [])).toEqual([]);
  });
});
