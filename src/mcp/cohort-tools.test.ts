import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelRunner, MODEL_FAILURE_MESSAGE } from '../agents/index.js';
import { CohortConfig } from '../config/index.js';
import type { ModelProvider } from '../models/index.js';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createScriptedModel, type ScriptedModel } from '../test/scripted-model.js';
import { createTestAssistant } from '../test/test-assistant.js';
import { cohortTools } from './cohort-tools.js';

// The MCP `ask` tools report a failed answer as /chat does: the model down or the step cap
// reached is a tool error with the message /chat's 503 carries, and nothing is kept.

let store: Store;
beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(() => store.close());

/** The `ask` and `ask_glossary` tools of an assistant whose agents call `model`. */
function askTools(model: ScriptedModel, maxSteps = 4) {
  const provider = {
    languageModel: () => model,
    resolveModelId: () => model.modelId,
    describe: () => 'scripted model',
  } as unknown as ModelProvider;
  const assistant = createTestAssistant(store, {
    runner: createModelRunner({
      provider,
      config: CohortConfig.parse({
        model: { baseUrl: 'http://127.0.0.1:9/v1', name: 'm', maxRetries: 0, maxSteps },
      }),
      retryDelayMs: 1,
    }),
  });
  const tools = cohortTools({ assistant, retriever: { retrieve: async () => [] } });
  return ['ask', 'ask_glossary'].map((name) => tools.find((tool) => tool.name === name)!);
}

const context = { signal: new AbortController().signal, progress: async () => undefined };

describe('MCP ask tools', () => {
  it('report a model that is down as a tool error with /chat’s message, keeping nothing', async () => {
    const refusing = createScriptedModel(() => ({
      error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
        code: 'ECONNREFUSED',
      }),
    }));
    for (const tool of askTools(refusing)) {
      const sessionId = crypto.randomUUID();
      const result = await tool.run({ query: 'What is a topic?', session_id: sessionId }, context);
      expect(result).toEqual({
        isError: true,
        content: [{ type: 'text', text: MODEL_FAILURE_MESSAGE }],
      });
      expect(await store.sessions.history(sessionId, 10)).toEqual([]);
    }
  });

  it('report a model stopped at its step cap as a tool error saying how to raise it', async () => {
    let call = 0;
    const searching = createScriptedModel(() => ({
      toolCalls: [
        {
          toolName: 'search_book_content',
          input: { query: 'topic' },
          toolCallId: `call_${++call}`,
        },
      ],
    }));
    for (const tool of askTools(searching, 2)) {
      const result = await tool.run({ query: 'What is a topic?' }, context);
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([
        {
          type: 'text',
          text: expect.stringContaining('Raise model.maxSteps (COHORT_MAX_STEPS)'),
        },
      ]);
    }
  });
});
