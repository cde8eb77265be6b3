import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createLogger, type SpanRecord } from '../telemetry/index.js';
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

  it("ends the answer's trace as cancelled when a client leaves an SSE stream", async () => {
    const recorded: { status: string; root?: SpanRecord }[] = [];
    let leave: () => void = () => undefined;
    const left = new Promise<void>((resolve) => (leave = resolve));
    const app = createServer(
      {
        assistant: createTestAssistant(store, {
          // The answer is still running when the client goes away after the route event.
          beforeRetrieve: () => left,
          traces: {
            recordTrace: (run, spans) =>
              recorded.push({
                status: run.status,
                root: spans.find((span) => span.name === 'cohort.ask'),
              }),
          },
        }),
        store,
        modeDescription: 'extractive (test)',
      },
      { webAssets: testWebAssets, logger: createLogger({ level: 'silent' }) },
    );
    const abort = new AbortController();
    const response = await app.fetch(
      new Request('http://localhost/chat/stream', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'What is a topic?' }),
        signal: abort.signal,
      }),
    );
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: route');
    abort.abort();
    await reader.cancel().catch(() => undefined);
    leave();
    await expect.poll(() => recorded.length, { timeout: 2_000 }).toBe(1);
    expect(recorded[0]).toMatchObject({
      status: 'cancelled',
      root: { status: 'error', attributes: { 'cohort.status': 'cancelled' } },
    });
  });
});
