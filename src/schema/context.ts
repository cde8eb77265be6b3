import * as z from 'zod';
import { Message } from './message.js';
import { jsonKind } from './json-kind.js';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './safe-text.js';
import { lazySchema } from './lazy-schema.js';

/** Maximum length of a query, in characters, after trimming (data-model spec). */
export const MAX_QUERY_LENGTH = 2000;
/** How many history messages an agent sees (data-model spec: last 10). */
export const MAX_HISTORY_MESSAGES = 10;
/** The message for an empty query, exactly as in rag-agent-research.md §4. */
export const EMPTY_QUERY_MESSAGE = 'Please provide a question to ask about the book.';

/** What a query that is not text gets told: its type, so a client sees what it sent wrong. */
function notTextMessage(input: unknown): string {
  if (input === undefined || input === null) return EMPTY_QUERY_MESSAGE;
  return `The question must be text, not ${jsonKind(input)}.`;
}

/**
 * The trimmed question when `input` is a question {@link Query} takes as it is (text of safe
 * characters, 1..{@link MAX_QUERY_LENGTH} once trimmed): what `Query.parse(input)` returns, without
 * zod. Anything else is `undefined`: parse it with zod, which says what is wrong. For the hot
 * paths that validate one question per request (`/route`).
 *
 * @example
 * plainQuery('  What is a topic? '); // 'What is a topic?'
 * plainQuery(''); // undefined
 */
export function plainQuery(input: unknown): string | undefined {
  if (typeof input !== 'string' || !isSafeText(input)) return undefined;
  const query = input.trim();
  return query.length >= 1 && query.length <= MAX_QUERY_LENGTH ? query : undefined;
}

/** A query: trimmed, 1..2000 characters. */
export const Query = lazySchema(() =>
  z
    .string({ error: (issue) => notTextMessage(issue.input) })
    .trim()
    .min(1, EMPTY_QUERY_MESSAGE)
    .max(MAX_QUERY_LENGTH, `The question is too long: keep it to ${MAX_QUERY_LENGTH} characters.`)
    .refine(isSafeText, `The question ${UNSAFE_TEXT_MESSAGE}.`),
);

/** A session id: a UUID or the literal "anonymous". */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const SessionId = lazySchema(() =>
  z
    .string({ error: 'session_id must be a UUID or "anonymous"' })
    .refine((value) => value === 'anonymous' || UUID.test(value), {
      message: 'session_id must be a UUID or "anonymous"',
    }),
);
export type SessionId = z.infer<typeof SessionId>;

/** The subject of a question the book does not cover (see `RouteResult.offTopic`). */
export const OffTopicSubject = lazySchema(() =>
  z.object({
    subject: z.array(z.string()),
    uncovered: z.array(z.string()).min(1),
    /**
     * True when the router is sure the subject is not the book's (names no dictionary knows, a
     * market or a sports result): the answer says so without quoting the book.
     */
    certain: z.boolean().optional(),
  }),
);
export type OffTopicSubject = z.infer<typeof OffTopicSubject>;

/** What an agent is given to answer one query. History is cut to the last 10 messages. */
export const AgentContext = lazySchema(() =>
  z.object({
    sessionId: SessionId.default('anonymous'),
    query: Query,
    chatHistory: z
      .array(Message)
      .default([])
      .transform((history) => history.slice(-MAX_HISTORY_MESSAGES)),
    selectedText: z
      .string()
      .max(10_000)
      .refine(isSafeText, `selected_text ${UNSAFE_TEXT_MESSAGE}`)
      .optional(),
    /**
     * The question with its subject filled in from earlier turns, when it is a follow-up ("What does
     * it stand for?" after "What is VSLAM?"), and with the words the book never uses in the book's
     * spelling ("midterm" → "mid term"): retrieval without a model uses it; `query` stays as asked.
     */
    standaloneQuery: z.string().optional(),
    /**
     * The subject the router found the book does not cover (an off-topic question sent to the
     * fallback agent): an answer whose quotes name no word of it says the book does not cover it.
     */
    offTopic: OffTopicSubject.optional(),
    domainFilter: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).default({}),
  }),
);
export type AgentContext = z.infer<typeof AgentContext>;
export type AgentContextInput = z.input<typeof AgentContext>;
