import { z } from 'zod';
import { AnswerMode, Message } from '../schema/index.js';

/** The body of every error response. */
export const ErrorResponse = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** The wrong field (snake_case), or null when no single field is to blame. */
    field: z.string().nullable(),
  }),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Response of `GET /healthz`. */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  store: z.object({ engine: z.enum(['pglite', 'postgres']), reachable: z.boolean() }),
  mode: AnswerMode,
  modeDescription: z.string(),
  agents: z.number().int().min(0),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Most messages `GET /sessions/:id/messages` returns at once. */
export const MAX_SESSION_MESSAGES = 1000;
/** How many messages `GET /sessions/:id/messages` returns when no `limit` is given. */
export const DEFAULT_SESSION_MESSAGES = 100;

/** Query of `GET /sessions/:id/messages`. */
export const SessionMessagesQuery = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${MAX_SESSION_MESSAGES}` })
    .int(`limit must be a whole number from 1 to ${MAX_SESSION_MESSAGES}`)
    .min(1, `limit must be a whole number from 1 to ${MAX_SESSION_MESSAGES}`)
    .max(MAX_SESSION_MESSAGES, `limit must be a whole number from 1 to ${MAX_SESSION_MESSAGES}`)
    .default(DEFAULT_SESSION_MESSAGES),
});

/** Response of `GET /sessions/:id/messages`: the latest messages, oldest first. */
export const SessionMessagesResponse = z.object({
  sessionId: z.string(),
  messages: z.array(Message),
  total: z.number().int().min(0),
});
export type SessionMessagesResponse = z.infer<typeof SessionMessagesResponse>;

/** Response of `DELETE /sessions/:id`. */
export const SessionDeletedResponse = z.object({
  sessionId: z.string(),
  deleted: z.number().int().min(0),
});
export type SessionDeletedResponse = z.infer<typeof SessionDeletedResponse>;
