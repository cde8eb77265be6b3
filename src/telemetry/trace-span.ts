import { randomBytes } from 'node:crypto';
import {
  context as otelContext,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';

import type { SpanRecord } from './span-record.js';

export type { SpanRecord } from './span-record.js';

/** The instrumentation scope cohort's spans carry. */
export const TRACER_NAME = 'cohort';

/**
 * One step of a run, traced twice from one call: as an OpenTelemetry span (exported only when an
 * SDK is registered; otherwise the API's no-op) and as a {@link SpanRecord} for the store's trace
 * view. Spans are passed explicitly to the code they cover, parent to child, so parallel work
 * (subagents, research tasks) nests correctly without relying on a context manager.
 */
export interface TraceSpan {
  readonly spanId: string;
  /** Starts a child span. */
  child(name: string, attributes?: Attributes): TraceSpan;
  set(attributes: Attributes): void;
  /** Marks the span failed with the error's message (it still has to be ended). */
  fail(error: unknown): void;
  end(attributes?: Attributes): void;
}

/** Collects the records of finished spans of one trace. */
export interface SpanCollector {
  readonly spans: SpanRecord[];
}

const newId = () => randomBytes(8).toString('hex');

function createSpan(
  name: string,
  attributes: Attributes,
  parent: { otel: Span; id: string } | undefined,
  collector: SpanCollector | undefined,
): TraceSpan {
  const startMs = Date.now();
  const started = performance.now();
  const parentContext = parent ? trace.setSpan(otelContext.active(), parent.otel) : undefined;
  const otel = trace.getTracer(TRACER_NAME).startSpan(name, { attributes }, parentContext);
  const otelId = otel.spanContext().spanId;
  // A recording span's id is shared with the exported trace; the no-op span's is all zeros.
  const spanId = otel.isRecording() ? otelId : newId();
  const record: SpanRecord | undefined = collector
    ? {
        spanId,
        parentId: parent?.id ?? null,
        name,
        startMs,
        durationMs: 0,
        attributes: { ...attributes },
        status: 'ok',
      }
    : undefined;
  let ended = false;
  const span: TraceSpan = {
    spanId,
    child: (childName, childAttributes = {}) =>
      createSpan(childName, childAttributes, { otel, id: spanId }, collector),
    set(more) {
      otel.setAttributes(more);
      if (record) Object.assign(record.attributes, more);
    },
    fail(error) {
      const message = error instanceof Error ? error.message : String(error);
      otel.setStatus({ code: SpanStatusCode.ERROR, message });
      if (error instanceof Error) otel.recordException(error);
      if (record) {
        record.status = 'error';
        record.error = message;
      }
    },
    end(more) {
      if (ended) return;
      ended = true;
      if (more) span.set(more);
      otel.end();
      if (record && collector) {
        record.durationMs = Math.round((performance.now() - started) * 1000) / 1000;
        collector.spans.push(record);
      }
    },
  };
  return span;
}

/**
 * Starts the root span of a run. With a `collector`, every finished span of the trace is also
 * recorded there (for the store's trace view).
 *
 * @example
 * const collector = { spans: [] };
 * const root = startTrace('cohort.ask', { 'cohort.query.length': 21 }, collector);
 * root.child('cohort.routing').end({ 'cohort.routing.agent': 'glossary' });
 * root.end();
 */
export function startTrace(
  name: string,
  attributes: Attributes = {},
  collector?: SpanCollector,
): TraceSpan {
  return createSpan(name, attributes, undefined, collector);
}

/**
 * Runs `fn` in a child span of `parent` (a new root when there is none), ending it when `fn`
 * settles and marking it failed when `fn` throws.
 *
 * @example
 * const chunks = await inSpan(span, 'cohort.retrieval', { 'cohort.retrieval.domain': 'hardware' },
 *   async (child) => retriever.retrieve(query));
 */
export async function inSpan<T>(
  parent: TraceSpan | undefined,
  name: string,
  attributes: Attributes,
  fn: (span: TraceSpan) => Promise<T>,
): Promise<T> {
  const span = parent ? parent.child(name, attributes) : startTrace(name, attributes);
  try {
    return await fn(span);
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}
