import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Attributes, Span } from '@opentelemetry/api';

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

// Span ids are cut from a block of random bytes drawn at once: one draw per 512 ids instead of
// one per span (a few spans per answer, so it counted on a busy server).
const ID_BYTES = 8;
let idBlock = Buffer.alloc(0);
let idOffset = 0;
const newId = () => {
  if (idOffset + ID_BYTES > idBlock.length) {
    idBlock = randomBytes(ID_BYTES * 512);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return idBlock.toString('hex', idOffset - ID_BYTES, idOffset);
};

type OtelApi = typeof import('@opentelemetry/api');

/** Where @opentelemetry/api 1.x keeps its global registrations (tracer provider, context manager). */
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');
let otelApi: OtelApi | undefined;

/**
 * The OpenTelemetry API, once anything has registered with it (an SDK's tracer provider sets its
 * global). Until then every span it would make is the API's no-op, so the API (51 modules, a
 * tenth of `import('cohort')`) is not loaded: it is required on the first span after a
 * registration, and its CommonJS build shares the global with the ESM one an SDK uses.
 */
function otel(): OtelApi | undefined {
  if (otelApi === undefined && OTEL_GLOBAL in globalThis) {
    otelApi = createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
  }
  return otelApi;
}

/** The OpenTelemetry span behind each {@link TraceSpan}, for a trace started under it. */
const otelSpans = new WeakMap<TraceSpan, Span>();

/** A span of another process (a W3C `traceparent`) that a trace continues. */
export interface RemoteParent {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Reads a W3C `traceparent` value (`00-<trace id>-<span id>-<flags>`), as an HTTP header or an
 * MCP request's `_meta.traceparent` carries it; anything else (including the all-zero ids the spec
 * calls invalid) is undefined, so hostile input starts a new trace instead.
 *
 * @example
 * parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
 */
export function parseTraceparent(value: unknown): RemoteParent | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!match) return undefined;
  const [, traceId = '', spanId = '', flags = '00'] = match;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

function parentOf(parent: TraceSpan | RemoteParent | undefined) {
  if (!parent) return undefined;
  if ('child' in parent) {
    return { otel: otelSpans.get(parent), id: parent.spanId, recordedId: parent.spanId };
  }
  // A remote span is the exported trace's parent; the store's trace of this run starts here.
  return {
    otel: otel()?.trace.wrapSpanContext({ ...parent, isRemote: true }),
    id: parent.spanId,
    recordedId: null,
  };
}

function createSpan(
  name: string,
  attributes: Attributes,
  parent: { otel: Span | undefined; id: string; recordedId: string | null } | undefined,
  collector: SpanCollector | undefined,
): TraceSpan {
  const startMs = Date.now();
  const started = performance.now();
  const api = otel();
  const parentContext =
    api && parent?.otel ? api.trace.setSpan(api.context.active(), parent.otel) : undefined;
  const otelSpan = api?.trace.getTracer(TRACER_NAME).startSpan(name, { attributes }, parentContext);
  // A recording span's id is shared with the exported trace; the no-op span's is all zeros.
  const spanId = otelSpan?.isRecording() ? otelSpan.spanContext().spanId : newId();
  const record: SpanRecord | undefined = collector
    ? {
        spanId,
        parentId: parent?.recordedId ?? null,
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
      createSpan(
        childName,
        childAttributes,
        { otel: otelSpan, id: spanId, recordedId: spanId },
        collector,
      ),
    set(more) {
      otelSpan?.setAttributes(more);
      if (record) Object.assign(record.attributes, more);
    },
    fail(error) {
      const message = error instanceof Error ? error.message : String(error);
      if (otelSpan && api) {
        otelSpan.setStatus({ code: api.SpanStatusCode.ERROR, message });
        if (error instanceof Error) otelSpan.recordException(error);
      }
      if (record) {
        record.status = 'error';
        record.error = message;
      }
    },
    end(more) {
      if (ended) return;
      ended = true;
      if (more) span.set(more);
      otelSpan?.end();
      if (record && collector) {
        record.durationMs = Math.round((performance.now() - started) * 1000) / 1000;
        collector.spans.push(record);
      }
    },
  };
  if (otelSpan) otelSpans.set(span, otelSpan);
  return span;
}

/**
 * Starts the root span of a run. With a `collector`, every finished span of the trace is also
 * recorded there (for the store's trace view). With a `parent` the run nests under it: a span of
 * this process (an MCP call running an answer; its own trace keeps it) or a remote caller's span
 * ({@link parseTraceparent}), which the exported trace continues.
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
  parent?: TraceSpan | RemoteParent,
): TraceSpan {
  return createSpan(name, attributes, parentOf(parent), collector);
}

/**
 * Runs `fn` in a child span of `parent` (a new root when there is none, continuing a remote
 * parent's trace when `parent` is one), ending it when `fn` settles and marking it failed when
 * `fn` throws.
 *
 * @example
 * const chunks = await inSpan(span, 'cohort.retrieval', { 'cohort.retrieval.domain': 'hardware' },
 *   async (child) => retriever.retrieve(query));
 */
export async function inSpan<T>(
  parent: TraceSpan | RemoteParent | undefined,
  name: string,
  attributes: Attributes,
  fn: (span: TraceSpan) => Promise<T>,
): Promise<T> {
  const span =
    parent && 'child' in parent
      ? parent.child(name, attributes)
      : startTrace(name, attributes, undefined, parent);
  try {
    return await fn(span);
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}
