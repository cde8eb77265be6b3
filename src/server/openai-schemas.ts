import * as z from 'zod';
import { Citation } from '../schema/index.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** One part of an OpenAI message whose content is an array; only text parts carry a question. */
const ContentPart = lazySchema(() =>
  z.looseObject({ type: z.string(), text: z.string().optional() }),
);

/** An OpenAI chat message; roles cohort does not use (system, tool…) are accepted and ignored. */
export const OpenAiMessage = lazySchema(() =>
  z.looseObject({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
  }),
);
export type OpenAiMessage = z.infer<typeof OpenAiMessage>;

/**
 * Body of `POST /v1/chat/completions`. Sampling fields (temperature, max_tokens…) are accepted so
 * any OpenAI client works, and ignored: the agents decide how they answer. Those cohort knows are
 * still checked against OpenAI's ranges, so a wrong one is a 422 naming it rather than silence,
 * and `n` must be 1: cohort gives one answer, and a client asking for more would get fewer. A
 * client's `tools` are ignored, so a `tool_choice` that needs a call ('required', a function) is
 * a 422 too: the client would wait for a tool call that never comes. So are a `response_format`
 * asking for JSON and `logprobs`: the answer is prose with citations and carries no log
 * probabilities, and a client that asked for them would read an answer it cannot use.
 * `stream_options.include_usage` is met: a last chunk carries the usage, as OpenAI sends it.
 */
export const ChatCompletionRequest = lazySchema(() =>
  z.looseObject({
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    max_tokens: z.number().int().positive().nullable().optional(),
    n: z
      .literal(1, { error: 'n must be 1: cohort returns one answer per request' })
      .nullable()
      .optional(),
    // A client's `tools` are accepted and never called: a choice that needs a call cannot be met.
    tool_choice: z
      .enum(['auto', 'none'], {
        error:
          'tool_choice must be "auto" or "none": cohort answers with text and never calls the tools a client sends',
      })
      .nullable()
      .optional(),
    response_format: z
      .looseObject({
        type: z.literal('text', {
          error:
            'response_format must be {"type": "text"}: cohort answers in prose with citations and cannot promise JSON',
        }),
      })
      .nullable()
      .optional(),
    logprobs: z
      .literal(false, {
        error: 'logprobs must be false: cohort does not return log probabilities',
      })
      .nullable()
      .optional(),
    stream_options: z
      .looseObject({ include_usage: z.boolean().nullable().optional() })
      .nullable()
      .optional(),
    model: z.string({ error: 'model is required: use "cohort" or an agent name' }).min(1),
    messages: z
      .array(OpenAiMessage, { error: 'messages must be a list of chat messages' })
      .min(1, 'messages must contain at least one user message'),
    stream: z.boolean().optional(),
    user: z.string().max(256).optional(),
  }),
);
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/** Token counts in OpenAI's shape. */
export const CompletionUsage = lazySchema(() =>
  z.object({
    prompt_tokens: z.number().int().min(0),
    completion_tokens: z.number().int().min(0),
    total_tokens: z.number().int().min(0),
  }),
);

/** Extra fields cohort adds to a completion: which agent answered and why. */
export const CohortCompletionInfo = lazySchema(() =>
  z.object({
    agent_used: z.string().optional(),
    routing_confidence: z.number().optional(),
    routing_reason: z.string().optional(),
    session_id: z.string(),
    mode: z.string(),
  }),
);

/** Response of `POST /v1/chat/completions` (OpenAI `chat.completion`, plus `citations`). */
export const ChatCompletion = lazySchema(() =>
  z.object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({ role: z.literal('assistant'), content: z.string() }),
        finish_reason: z.literal('stop'),
      }),
    ),
    usage: CompletionUsage,
    citations: z.array(Citation),
    cohort: CohortCompletionInfo,
  }),
);
export type ChatCompletion = z.infer<typeof ChatCompletion>;

/** One `data:` event of a streamed completion (OpenAI `chat.completion.chunk`). */
export const ChatCompletionChunk = lazySchema(() =>
  z.object({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        delta: z.object({
          role: z.literal('assistant').optional(),
          content: z.string().optional(),
        }),
        finish_reason: z.literal('stop').nullable(),
      }),
    ),
    /** Only on the last chunk of a stream that asked `stream_options.include_usage` (no choices). */
    usage: CompletionUsage.optional(),
    citations: z.array(Citation).optional(),
    cohort: CohortCompletionInfo.optional(),
  }),
);
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

/** Response of `GET /v1/models`: `cohort` (routed) and one model per agent (forced). */
export const ModelList = lazySchema(() =>
  z.object({
    object: z.literal('list'),
    data: z.array(
      z.object({
        id: z.string(),
        object: z.literal('model'),
        created: z.number().int(),
        owned_by: z.string(),
      }),
    ),
  }),
);
export type ModelList = z.infer<typeof ModelList>;
