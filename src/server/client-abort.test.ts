import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAssistant, type OpenedAssistant } from '../assistant/index.js';
import { loadConfig } from '../config/index.js';
import { createResearchDependencies } from '../research/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../test/fake-openai-server.js';
import { startServer, type RunningServer } from './start-server.js';

// The whole path of a served request: a real server on a port, the assistant and research built
// from the configuration, and a model server that never answers, which counts the calls it gets.
// Each model call is limited to 1 s and retried 1 s later (research: at once), so a run that
// outlived its client would call the model again within the wait below.
let model: FakeOpenAI;
let opened: OpenedAssistant;
let running: RunningServer;

beforeAll(async () => {
  model = await startFakeOpenAI({ chat: Array.from({ length: 50 }, () => ({ kind: 'hang' })) });
  const cwd = mkdtempSync(join(tmpdir(), 'cohort-client-abort-'));
  opened = await openAssistant({
    config: loadConfig({
      env: {
        COHORT_DATA_DIR: 'memory://',
        OPENAI_BASE_URL: model.baseUrl,
        COHORT_MODEL: 'scripted',
        COHORT_MODEL_TIMEOUT: '1',
        TIMEOUT_LLM_CALL: '1',
      },
      cwd,
    }),
  });
  const research = createResearchDependencies(opened.config, { store: opened.store });
  running = await startServer(opened, {
    server: { port: 0, host: '127.0.0.1' },
    handleSignals: false,
    close: opened.close,
    // Only the model leaves the machine: no web and no paper search.
    research: { ...research, webSearch: undefined, paperSearches: [] },
  });
}, 120_000);

afterAll(async () => {
  await running?.close();
  await model?.close();
});

const chatCalls = () => model.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

/**
 * Sends `body` to `path`, leaves as soon as the model has been called once, and returns how many
 * model calls were made by the request: 1 when the run stopped with its client.
 */
async function callsAfterLeaving(path: string, body: unknown): Promise<number> {
  const before = chatCalls();
  const client = new AbortController();
  const answered = fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: client.signal,
  })
    .then((response) => response.text())
    .catch(() => undefined);
  await expect.poll(chatCalls, { timeout: 10_000, interval: 20 }).toBe(before + 1);
  const modelCallClosed = model.nextClientAbort();
  client.abort();
  await answered;
  // The model call in flight is cancelled with the run, not left to its timeout.
  await modelCallClosed;
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  return chatCalls() - before;
}

describe('a client that leaves stops its run: no model call starts after it has gone', () => {
  it('POST /chat (as before)', async () => {
    expect(await callsAfterLeaving('/chat', { query: 'What is a ROS 2 topic?' })).toBe(1);
  });

  it('POST /chat/stream, before the first event', async () => {
    expect(await callsAfterLeaving('/chat/stream', { query: 'What is a ROS 2 topic?' })).toBe(1);
  });

  it('POST /v1/chat/completions, not streamed and streamed', async () => {
    const messages = [{ role: 'user', content: 'What is a ROS 2 topic?' }];
    expect(await callsAfterLeaving('/v1/chat/completions', { model: 'cohort', messages })).toBe(1);
    expect(
      await callsAfterLeaving('/v1/chat/completions', { model: 'cohort', messages, stream: true }),
    ).toBe(1);
  });

  it('POST /research and /research/stream, during planning', async () => {
    const question = { question: 'What is a ROS 2 topic?', tasks: 1 };
    expect(await callsAfterLeaving('/research', question), '/research').toBe(1);
    expect(await callsAfterLeaving('/research/stream', question), '/research/stream').toBe(1);
  });
});
