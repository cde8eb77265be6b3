import { trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTraceparent, startTrace, type SpanCollector } from './trace-span.js';

const exporter = new InMemorySpanExporter();
afterAll(() => trace.disable());

describe('trace spans', () => {
  it('records nested spans for the store, and exports them once an SDK has registered', async () => {
    const before: SpanCollector = { spans: [] };
    const root = startTrace('cohort.ask', { 'cohort.query.length': 5 }, before);
    root.child('cohort.routing').end();
    root.end();
    const [routing, ask] = before.spans;
    expect(routing).toMatchObject({ name: 'cohort.routing', parentId: ask?.spanId });
    expect(ask).toMatchObject({ name: 'cohort.ask', parentId: null });

    // An SDK registered later (as `cohort serve` with OTEL_EXPORTER_OTLP_ENDPOINT does) gets the
    // spans started after it, with the same ids as the store's records.
    const processor = new SimpleSpanProcessor({ exporter });
    trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [processor] }));
    const after: SpanCollector = { spans: [] };
    const remote = parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    const next = startTrace('cohort.ask', {}, after, remote);
    const child = next.child('cohort.retrieval');
    child.fail(new Error('store down'));
    child.end();
    next.end();
    await processor.forceFlush();
    const exported = exporter.getFinishedSpans();
    expect(exported.map((span) => span.name)).toEqual(['cohort.retrieval', 'cohort.ask']);
    expect(exported.map((span) => span.spanContext().spanId)).toEqual(
      after.spans.map((span) => span.spanId),
    );
    expect(exported[1]?.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(exported[0]?.status).toMatchObject({ code: 2, message: 'store down' });
    expect(after.spans[0]).toMatchObject({ parentId: next.spanId, status: 'error' });
  });

  it('gives every span an id of its own, 16 hex digits, across many traces', () => {
    const collector: SpanCollector = { spans: [] };
    for (let i = 0; i < 700; i++) {
      const root = startTrace('cohort.ask', {}, collector);
      root.child('cohort.routing').end();
      root.end();
    }
    const ids = collector.spans.map((span) => span.spanId);
    expect(ids).toHaveLength(1400);
    expect(ids.every((id) => /^[0-9a-f]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
