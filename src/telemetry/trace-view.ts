import { GEN_AI } from './gen-ai.js';
import type { SpanRecord } from './span-record.js';

/** A run's trace as the trace view shows it: its spans and the totals a reader looks for first. */
export interface TraceView {
  runId: string;
  kind: string;
  status: string;
  /** From the first span's start to the last span's end, in milliseconds. */
  durationMs: number;
  /** Tokens of the model calls (GenAI `chat` spans), or of the research tasks without them. */
  inputTokens: number;
  outputTokens: number;
  /** The routing decision of an answer. */
  routing?: { agent: string; phase: string; confidence: number; reason: string };
  spans: SpanRecord[];
}

const numberOf = (value: unknown) => (typeof value === 'number' ? value : 0);

/**
 * Summarises a run's recorded spans for the trace view (`GET /runs/:id/trace`, the page's panel).
 *
 * @example
 * traceView({ id, kind: 'answer', status: 'done' }, await store.runs.spans(id));
 */
export function traceView(
  run: { id: string; kind: string; status: string },
  spans: SpanRecord[],
): TraceView {
  const start = Math.min(...spans.map((span) => span.startMs));
  const end = Math.max(...spans.map((span) => span.startMs + span.durationMs));
  const chat = spans.filter((span) => span.attributes[GEN_AI.operationName] === 'chat');
  const counted =
    chat.length > 0 ? chat : spans.filter((span) => span.name.startsWith('research.task'));
  const routing = spans.find((span) => span.name === 'cohort.routing')?.attributes;
  return {
    runId: run.id,
    kind: run.kind,
    status: run.status,
    durationMs: spans.length > 0 ? Math.round((end - start) * 1000) / 1000 : 0,
    inputTokens: counted.reduce(
      (sum, span) => sum + numberOf(span.attributes[GEN_AI.usageInput]),
      0,
    ),
    outputTokens: counted.reduce(
      (sum, span) => sum + numberOf(span.attributes[GEN_AI.usageOutput]),
      0,
    ),
    ...(routing
      ? {
          routing: {
            agent: String(routing['cohort.routing.agent'] ?? ''),
            phase: String(routing['cohort.routing.phase'] ?? ''),
            confidence: numberOf(routing['cohort.routing.confidence']),
            reason: String(routing['cohort.routing.reason'] ?? ''),
          },
        }
      : {}),
    spans,
  };
}
