import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createModelRunner, MODEL_FAILURE_MESSAGE } from '../agents/index.js';
import { CohortConfig } from '../config/index.js';
import type { ModelProvider } from '../models/index.js';
import { createScriptedModel } from '../test/scripted-model.js';
import { createServer } from './create-server.js';
import { createTestAssistant, readSse, testWebAssets } from '../test/test-assistant.js';
import { suiteStore } from '../test/test-server.js';

// A model server that refuses every call, through the real model runner: the answer must be a
// 503 `model_unavailable` carrying the spec's message, and the failed turn must not be kept.
const refusingModel = createScriptedModel(() => ({
  error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
}));
const provider: ModelProvider = {
  languageModel: () => refusingModel,
  resolveModelId: () => refusingModel.modelId,
  describe: () => 'refusing model',
} as unknown as ModelProvider;

const store = suiteStore();

const app = () =>
  createServer(
    {
      assistant: createTestAssistant(store(), {
        runner: createModelRunner({
          provider,
          config: CohortConfig.parse({
            model: { baseUrl: 'http://127.0.0.1:9/v1', name: 'm', maxRetries: 0 },
          }),
          retryDelayMs: 1,
        }),
      }),
      store: store(),
      modeDescription: 'model (test)',
    },
    { webAssets: testWebAssets },
  );

const post = (path: string, body: unknown) =>
  app().request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a model that is down', () => {
  it('is 503 model_unavailable with the spec message on /chat, and the turn is not saved', async () => {
    const sessionId = randomUUID();
    const res = await post('/chat', { query: 'What is a topic?', session_id: sessionId });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: { code: 'model_unavailable', message: MODEL_FAILURE_MESSAGE, field: null },
    });
    expect(await store().sessions.history(sessionId, 10)).toEqual([]);
    expect((await app().request(`/sessions/${sessionId}/messages`)).status).toBe(404);
  });

  it('is 503 on /v1/chat/completions, and an error event on /chat/stream', async () => {
    const completion = await post('/v1/chat/completions', {
      model: 'cohort',
      user: 'alice',
      messages: [{ role: 'user', content: 'What is a topic?' }],
    });
    expect(completion.status).toBe(503);
    expect(((await completion.json()) as { error: { code: string } }).error.code).toBe(
      'model_unavailable',
    );
    const stream = await post('/chat/stream', { query: 'What is a topic?' });
    const events = await readSse(stream);
    expect(events.at(-1)?.event).toBe('error');
    expect(events.at(-1)?.data).toContain('model_unavailable');
    expect(events.some((event) => event.event === 'done')).toBe(false);
  });
});
