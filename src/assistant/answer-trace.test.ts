import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { parseTraceparent, startTrace, type SpanRecord } from '../telemetry/index.js';
import { createTestAssistant } from '../test/test-assistant.js';
import type { TraceSink } from './index.js';

// An answer's trace always ends and is recorded: when the answer is done, when it fails, and when
// its consumer stops early (a client gone from an SSE stream), which records it as cancelled.

interface Recorded {
  run: Parameters<TraceSink['recordTrace']>[0];
  spans: readonly SpanRecord[];
}

let store: Store;
beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(() => store.close());

const sink = () => {
  const recorded: Recorded[] = [];
  return {
    recorded,
    traces: { recordTrace: (run, spans) => recorded.push({ run, spans }) } as TraceSink,
  };
};

describe("an answer's trace", () => {
  it('is recorded when the answer is done, without the caller waiting for a write', async () => {
    const { recorded, traces } = sink();
    const reply = await createTestAssistant(store, { traces }).ask({ query: 'What is a topic?' });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.run).toMatchObject({ id: reply.queryId, kind: 'answer', status: 'done' });
    const root = recorded[0]?.spans.find((span) => span.name === 'cohort.ask');
    expect(root).toMatchObject({ parentId: null, status: 'ok' });
  });

  it('ends as cancelled, and is recorded, when the consumer stops before the answer is done', async () => {
    const { recorded, traces } = sink();
    const stream = createTestAssistant(store, { traces }).askStream({ query: 'What is a topic?' });
    const events = stream[Symbol.asyncIterator]();
    expect((await events.next()).value).toMatchObject({ type: 'route' });
    expect(recorded).toEqual([]);
    await events.return?.();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.run.status).toBe('cancelled');
    const root = recorded[0]?.spans.find((span) => span.name === 'cohort.ask');
    expect(root).toMatchObject({ status: 'error', attributes: { 'cohort.status': 'cancelled' } });
    expect(root?.error).toMatch(/cancelled/);
    // The routing span had ended before; it is kept as it was.
    expect(recorded[0]?.spans.find((span) => span.name === 'cohort.routing')?.status).toBe('ok');
  });

  it('ends as cancelled when the answer is aborted through its signal', async () => {
    const { recorded, traces } = sink();
    const abort = new AbortController();
    const assistant = createTestAssistant(store, {
      traces,
      beforeRetrieve: async () => {
        abort.abort();
        abort.signal.throwIfAborted();
      },
    });
    await expect(
      assistant.ask({ query: 'What is a topic?' }, { signal: abort.signal }),
    ).rejects.toThrow();
    expect(recorded.map((entry) => entry.run.status)).toEqual(['cancelled']);
  });

  it("nests under a caller's span when given one", async () => {
    const { recorded, traces } = sink();
    const call = startTrace('mcp tools/call ask');
    await createTestAssistant(store, { traces }).ask(
      { query: 'What is a topic?' },
      { parent: call },
    );
    call.end();
    expect(recorded[0]?.spans.find((span) => span.name === 'cohort.ask')?.parentId).toBe(
      call.spanId,
    );
  });
});

describe('parseTraceparent', () => {
  it('reads a W3C traceparent and refuses anything else', () => {
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
    });
    for (const bad of [
      undefined,
      42,
      '',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\n',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01; evil',
    ])
      expect(parseTraceparent(bad), String(bad)).toBeUndefined();
  });
});
