import { describe, expect, it } from 'vitest';
import type { AgentRunner } from '../agents/index.js';
import { createStore, openPgliteDb } from '../store/index.js';
import { startServer } from './start-server.js';
import { createTestAssistant, testWebAssets } from '../test/test-assistant.js';

/** A runner that answers nothing until its run is stopped. */
const waitingRunner: AgentRunner = {
  mode: 'extractive',
  // eslint-disable-next-line require-yield -- it never answers: it waits to be stopped
  async *run(_agent, _context, dependencies) {
    await new Promise<never>((_, reject) => {
      const signal = dependencies.signal;
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  },
};

describe('a stream open when the server stops waiting at shutdown', () => {
  // Found by an outside tester: the connection was cut with no event, so a client could not
  // tell a server going away from a network fault.
  it('ends with an error event saying the server is shutting down', async () => {
    const store = await createStore(await openPgliteDb('memory://'));
    const running = await startServer(
      {
        assistant: createTestAssistant(store, { runner: waitingRunner }),
        store,
        modeDescription: 'extractive (test)',
      },
      {
        server: { port: 0, host: '127.0.0.1' },
        webAssets: testWebAssets,
        handleSignals: false,
        shutdownTimeoutMs: 200,
        close: () => store.close(),
      },
    );
    const response = await fetch(`${running.url}/chat/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'What is a topic?' }),
    });
    expect(response.status).toBe(200);
    const text = response.text();
    await running.close();
    const events = await text;
    expect(events).toMatch(/event: error\ndata: .*"code":"shutting_down"/);
    expect(events).toContain('The server is shutting down');
  }, 20_000);
});
