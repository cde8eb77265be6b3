import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createLogger } from '../telemetry/index.js';
import { createServer } from './create-server.js';
import { createTestAssistant, testWebAssets } from '../test/test-assistant.js';

let store: Store;
beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(() => store.close());

describe('a client that goes away', () => {
  it('is logged as a disconnect at info level, not as an internal error', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({
      level: 'debug',
      write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    });
    let abort = new AbortController();
    const app = createServer(
      {
        assistant: createTestAssistant(store, {
          // The client leaves while the book is searched; an abort-aware search then stops.
          beforeRetrieve: async () => {
            abort.abort();
            abort.signal.throwIfAborted();
          },
        }),
        store,
        modeDescription: 'extractive (test)',
      },
      { webAssets: testWebAssets, logger },
    );
    for (const path of ['/chat', '/chat/stream']) {
      lines.length = 0;
      abort = new AbortController();
      const request = new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'What is a topic?' }),
        signal: abort.signal,
      });
      await Promise.resolve(app.fetch(request))
        .then((res) => res.text())
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(
        lines.filter((line) => line.level === 'error'),
        path,
      ).toEqual([]);
      expect(
        lines.some((line) => line.event === 'client_disconnected' && line.level === 'info'),
        JSON.stringify(lines),
      ).toBe(true);
    }
  });
});
