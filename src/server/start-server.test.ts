import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { startServer, type RunningServer } from './start-server.js';
import { createTestAssistant, testWebAssets } from '../test/test-assistant.js';

let store: Store;
let running: RunningServer;
let releaseAnswer: () => void = () => undefined;
let holdAnswers = false;
let storeClosed = false;

beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
  const assistant = createTestAssistant(store, {
    beforeRetrieve: () =>
      holdAnswers ? new Promise<void>((resolve) => (releaseAnswer = resolve)) : Promise.resolve(),
  });
  running = await startServer(
    { assistant, store, modeDescription: 'extractive (test)' },
    {
      server: { port: 0, host: '127.0.0.1' },
      webAssets: testWebAssets,
      handleSignals: false,
      shutdownTimeoutMs: 5_000,
      close: async () => {
        storeClosed = true;
        await store.close();
      },
    },
  );
});
afterAll(() => running.close());

describe('an OpenAI client against /v1', () => {
  const client = () =>
    new OpenAI({ baseURL: `${running.url}/v1`, apiKey: 'unused', maxRetries: 0 });

  it('gets an answer', async () => {
    const completion = await client().chat.completions.create({
      model: 'cohort',
      messages: [{ role: 'user', content: 'What is a topic?' }],
    });
    expect(completion.choices[0]?.message.content).toContain('named channel');
    expect(completion.choices[0]?.message.content).toContain('[1]');
  });

  it('gets a streamed answer', async () => {
    const stream = await client().chat.completions.create({
      model: 'glossary',
      stream: true,
      messages: [{ role: 'user', content: 'What is a topic?' }],
    });
    let text = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toContain('named channel');
    expect(text).toContain('**Sources:**');
    expect(finish).toBe('stop');
  });

  it('sees API errors as errors with the server message', async () => {
    await expect(
      client().chat.completions.create({
        model: 'gpt-4',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('Unknown model "gpt-4"'),
    });
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, refuses new ones, then closes the store', async () => {
    holdAnswers = true;
    const inFlight = fetch(`${running.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'What is a topic?' }),
    });
    while (running.openRequests() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const closing = running.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(storeClosed).toBe(false);
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
    releaseAnswer();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { answer: string }).answer).toContain('named channel');
    await closing;
    expect(storeClosed).toBe(true);
    await running.closed;
  });
});
