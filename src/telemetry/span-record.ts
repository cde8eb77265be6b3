import type { Attributes } from '@opentelemetry/api';

/** A finished span as the store keeps it (the trace view reads these). */
export interface SpanRecord {
  spanId: string;
  /** The parent span, or null for the root. */
  parentId: string | null;
  name: string;
  /** Start time, milliseconds since the epoch. */
  startMs: number;
  durationMs: number;
  attributes: Attributes;
  status: 'ok' | 'error';
  error?: string;
}
