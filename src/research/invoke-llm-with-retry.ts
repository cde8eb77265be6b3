import type { LanguageModelV3Middleware } from '@ai-sdk/provider';
import type { LanguageModel, ModelMessage } from 'ai';
import type { z } from 'zod';
import { tokenCount } from '../agents/loop/index.js';
import { settleBounded } from '../bounded-call/index.js';
import { carriedCohortError } from '../errors/index.js';
import { findJsonProblem, MAX_JSON_DEPTH } from '../schema/index.js';
import type { TokenCount } from './research-events.js';

/** Options of {@link invokeLlmWithRetry}. */
export interface InvokeLlmOptions<T> {
  model: LanguageModel;
  system: string;
  /** The conversation so far; retries append to a copy, never rewrite it (keeps the KV cache). */
  messages: ModelMessage[];
  schema: z.ZodType<T>;
  /** Limit of one call (`research.timeoutLlmCall`). */
  timeoutMs: number;
  /** Further attempts after the first (spec: 2). */
  maxRetries: number;
  signal: AbortSignal;
  /** Checks beyond the schema (citation numbers in range); returns the problem or undefined. */
  check?: (value: T) => string | undefined;
  /** Receives the token use of each call. */
  onUsage?: (tokens: TokenCount) => void;
}

/** The outcome: the value and the conversation that produced it, or the last error. */
export type InvokeLlmResult<T> =
  | { ok: true; value: T; attempts: number; messages: ModelMessage[]; text: string }
  | { ok: false; error: string; attempts: number };

const tokensOf = (usage: { inputTokens?: number; outputTokens?: number } | undefined) => {
  const input = tokenCount(usage?.inputTokens);
  const output = tokenCount(usage?.outputTokens);
  // The AI SDK's total is the sum of the counts as sent, which may be negative.
  return { input, output, total: input + output };
};

/** What stands for an answer nested too deep to be read (see {@link READABLE_ANSWERS}). */
const TOO_DEEP_ANSWER = `(The answer was JSON nested more than ${MAX_JSON_DEPTH} levels deep, which is not read.)`;

/** Whether `text` is JSON nested deeper than {@link MAX_JSON_DEPTH} (prose or broken JSON is not). */
function nestedTooDeep(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  return findJsonProblem(value, MAX_JSON_DEPTH, { text: false }) !== undefined;
}

/**
 * Keeps the model's answers to what these calls can read. They offer no tool, so a tool call is
 * never wanted and is dropped (the answer then holds no object, retried with why); an answer of
 * JSON nested deeper than {@link MAX_JSON_DEPTH} is replaced by a note saying so, which fails to
 * parse and is retried. The AI SDK deep-clones a call's parsed arguments with the step, and
 * stringifies an object that fails the schema into its error: a hostile model's 5,000 nested
 * arrays, as arguments or as the answer, overflowed the stack, and the analysis failed with
 * "Maximum call stack size exceeded".
 */
const READABLE_ANSWERS: LanguageModelV3Middleware = {
  specificationVersion: 'v3',
  wrapGenerate: async ({ doGenerate }) => {
    const result = await doGenerate();
    const content = result.content.flatMap((part) => {
      if (part.type === 'tool-call') return [];
      if (part.type === 'text' && nestedTooDeep(part.text))
        return [{ ...part, text: TOO_DEEP_ANSWER }];
      return [part];
    });
    return { ...result, content };
  },
};

/**
 * invoke_llm_with_retry (spec): asks `model` for a structured object, bounded by `timeoutMs` per
 * call. On a timeout, a parse or validation failure or any other error it retries up to
 * `maxRetries` times, appending the failed answer and the error to the conversation so the model
 * can correct itself. Never throws; after the last attempt it returns the error.
 *
 * @example
 * const result = await invokeLlmWithRetry({ model, system, messages, schema: AnalysisOutput, timeoutMs: 120_000, maxRetries: 2, signal });
 */
export async function invokeLlmWithRetry<T>(
  options: InvokeLlmOptions<T>,
): Promise<InvokeLlmResult<T>> {
  // The AI SDK loads with the first model call: `import('cohort')` does not pay for it.
  const { generateText, NoObjectGeneratedError, Output, TypeValidationError, wrapLanguageModel } =
    await import('ai');
  const model =
    typeof options.model === 'object' && options.model.specificationVersion === 'v3'
      ? wrapLanguageModel({ model: options.model, middleware: READABLE_ANSWERS })
      : options.model;
  const messages = [...options.messages];
  let lastError = 'no attempt was made';
  for (let attempt = 1; attempt <= options.maxRetries + 1; attempt++) {
    if (options.signal.aborted) return { ok: false, error: 'cancelled', attempts: attempt - 1 };
    const timed = await settleBounded(
      (signal) =>
        generateText({
          model,
          system: options.system,
          messages,
          output: Output.object({ schema: options.schema }),
          abortSignal: signal,
          maxRetries: 0,
        }),
      { timeoutMs: options.timeoutMs, signal: options.signal, what: 'the analysis model call' },
    );
    if (timed.ok) {
      options.onUsage?.(tokensOf(timed.value.usage));
      const text = timed.value.text;
      let value: T;
      try {
        // Throws NoOutputGeneratedError when the answer holds no object (a tool call instead).
        value = timed.value.output as T;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        lastError = `${reason} (the model's answer ended with "${timed.value.finishReason}" and held no JSON object)`;
        messages.push(...(text ? [{ role: 'assistant' as const, content: text }] : []), {
          role: 'user',
          content: `That answer could not be used (${lastError}). Reply again with only one JSON object matching the schema, and call no tool.`,
        });
        continue;
      }
      const problem = options.check?.(value);
      if (!problem) {
        return {
          ok: true,
          value,
          attempts: attempt,
          messages: [...messages, { role: 'assistant', content: text }],
          text,
        };
      }
      lastError = problem;
      messages.push(
        { role: 'assistant', content: text },
        {
          role: 'user',
          content: `That answer cannot be used: ${problem}. Reply again with one JSON object that fixes it.`,
        },
      );
      continue;
    }
    if (timed.reason === 'aborted') return { ok: false, error: timed.message, attempts: attempt };
    if (NoObjectGeneratedError.isInstance(timed.error)) {
      options.onUsage?.(tokensOf(timed.error.usage));
      let cause = timed.error.cause instanceof Error ? timed.error.cause.message : '';
      // A validation failure's message starts by quoting the whole answer (which may be huge);
      // what was wrong with it is the message of its own cause.
      if (TypeValidationError.isInstance(timed.error.cause)) {
        const inner: unknown = timed.error.cause.cause;
        cause = `Type validation failed: ${inner instanceof Error ? inner.message : String(inner)}`;
      }
      lastError = `${timed.error.message}${cause ? ` ${cause.slice(0, 500)}` : ''}`;
      messages.push(
        { role: 'assistant', content: timed.error.text ?? '' },
        {
          role: 'user',
          content: `That answer could not be used (${lastError}). Reply again with only one JSON object matching the schema.`,
        },
      );
      continue;
    }
    // The model provider's own errors (the response byte cap) arrive wrapped by the AI SDK.
    lastError = carriedCohortError(timed.error)?.message ?? timed.message;
    messages.push({
      role: 'user',
      content: `The previous attempt failed (${lastError}). Answer again, briefly, with one JSON object matching the schema.`,
    });
  }
  return { ok: false, error: lastError, attempts: options.maxRetries + 1 };
}
