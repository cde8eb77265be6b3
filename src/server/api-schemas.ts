import * as z from 'zod';
import { AnswerMode, Message } from '../schema/index.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** The body of every error response. */
export const ErrorResponse = lazySchema(() =>
  z.object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      /** The wrong field (snake_case), or null when no single field is to blame. */
      field: z.string().nullable(),
    }),
  }),
);
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Response of `GET /healthz`. */
export const HealthResponse = lazySchema(() =>
  z.object({
    status: z.enum(['ok', 'unavailable']),
    store: z.object({ engine: z.enum(['pglite', 'postgres']), reachable: z.boolean() }),
    mode: AnswerMode,
    modeDescription: z.string(),
    agents: z.number().int().min(0),
  }),
);
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Most messages `GET /sessions/:id/messages` returns at once. */
export const MAX_SESSION_MESSAGES = 1000;
/** How many messages `GET /sessions/:id/messages` returns when no `limit` is given. */
export const DEFAULT_SESSION_MESSAGES = 100;
/**
 * Most UTF-8 bytes of message text one `GET /sessions/:id/messages` reads: the newest messages
 * whose newer ones hold less than this (see `SessionRepo.history`). A model's answer may be a
 * million characters, and 1,000 of them made one page of gigabytes.
 */
export const MAX_SESSION_PAGE_BYTES = 32 * 1024 * 1024;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_SESSION_MESSAGES}, in decimal digits only`;

/**
 * A query parameter holding a whole number from `min` to `max`, written in decimal digits only.
 * `z.coerce.number()` reads the parameter with `Number()`, which also takes `0x10`, `1e2`, `+5`,
 * ` 5` and `5.0`: a client sending those meant something else, or is probing.
 *
 * @example
 * decimalParam(1, 1000, 'limit must be …').parse('25'); // 25
 */
function decimalParam(min: number, max: number, message: string) {
  return z
    .string({ error: message })
    .regex(/^[0-9]+$/, message)
    .transform(Number)
    .pipe(z.number().int(message).min(min, message).max(max, message));
}

/** Query of `GET /sessions/:id/messages`. */
export const SessionMessagesQuery = lazySchema(() =>
  z.object({
    limit: decimalParam(1, MAX_SESSION_MESSAGES, LIMIT_MESSAGE).default(DEFAULT_SESSION_MESSAGES),
  }),
);

/** Response of `GET /sessions/:id/messages`: the latest messages, oldest first. */
export const SessionMessagesResponse = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    messages: z.array(Message),
    total: z.number().int().min(0),
  }),
);
export type SessionMessagesResponse = z.infer<typeof SessionMessagesResponse>;

/** Response of `DELETE /sessions/:id`. */
export const SessionDeletedResponse = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    deleted: z.number().int().min(0),
  }),
);
export type SessionDeletedResponse = z.infer<typeof SessionDeletedResponse>;

/** One recorded span of `GET /runs/:id/trace`; its `attributes` keep OpenTelemetry's names. */
const TraceSpan = lazySchema(() =>
  z.object({
    spanId: z.string(),
    parentId: z.string().nullable(),
    name: z.string(),
    /** Milliseconds since the epoch. */
    startMs: z.number(),
    durationMs: z.number(),
    status: z.enum(['ok', 'error']),
    error: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()),
  }),
);

/** Response of `GET /runs/:id/trace`: a run's spans and the totals of the trace view. */
export const TraceResponse = lazySchema(() =>
  z.object({
    runId: z.string(),
    kind: z.string(),
    status: z.string(),
    durationMs: z.number(),
    inputTokens: z.number().int().min(0),
    outputTokens: z.number().int().min(0),
    /** The routing decision of an answer; null for a research or coding run. */
    routing: z
      .object({ agent: z.string(), phase: z.string(), confidence: z.number(), reason: z.string() })
      .nullable(),
    spans: z.array(TraceSpan),
  }),
);
export type TraceResponse = z.infer<typeof TraceResponse>;
