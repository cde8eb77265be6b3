import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { CohortError, formatNumber } from '../../errors/index.js';
import { attemptSignal, sleep } from '../../bounded-call/index.js';
import {
  isRetryable,
  MAX_MODEL_OUTPUT_CHARS,
  retryDelay,
  toServiceError,
} from '../../models/index.js';
import type { TokenUsage } from '../../schema/index.js';
import { MAX_TOOL_CALLS_PER_STEP, type PendingToolCall } from './tool-execution.js';
import type { LoopEvent } from './types.js';
import { toTokenUsage } from './usage.js';

/**
 * Most tool calls one model reply may hold; a reply with more fails, unread past them, and is not
 * retried. Only {@link MAX_TOOL_CALLS_PER_STEP} run, and the rest are answered with a refusal the
 * model reads, but every call and its refusal go back with the conversation at each later step:
 * a hostile model's reply of 20,000 calls made the next requests 6 to 29 MB (100,000 messages),
 * the AI SDK's streams spent 2 to 7 s of CPU reading each such reply (28 s for 40,000: their
 * queues shift arrays), and one `POST /chat` took 75 s and 300 MB.
 */
export const MAX_TOOL_CALLS_PER_REPLY = 1_000;

/** One model call of a run. */
export interface TurnRequest {
  model: LanguageModelV3;
  /** Prompt, tools and settings; the abort signal is added per attempt. */
  call: Omit<LanguageModelV3CallOptions, 'abortSignal'>;
  step: number;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number | undefined;
  signal: AbortSignal | undefined;
  /** Output bound of the call (default {@link MAX_MODEL_OUTPUT_CHARS}). */
  maxOutputChars?: number;
}

/** What one model call produced. */
export interface TurnOutcome {
  text: string;
  toolCalls: PendingToolCall[];
  usage: TokenUsage;
  finishReason: string;
  attempts: number;
}

/**
 * Makes one model call and streams its text. Each attempt has its own timeout; a retryable failure
 * (429, 5xx, network, timeout) is retried with backoff, but only while no text has been streamed,
 * so a reader never sees the same words twice. A call that produces more than `maxOutputChars`
 * is cut there and fails, not retried: memory stays bounded whatever the endpoint sends. Failures
 * end as a {@link CohortError}.
 */
export async function* runTurn(request: TurnRequest): AsyncGenerator<LoopEvent, TurnOutcome> {
  const maxChars = request.maxOutputChars ?? MAX_MODEL_OUTPUT_CHARS;
  for (let attempt = 0; ; attempt++) {
    const bound = attemptSignal(request.signal, request.timeoutMs);
    let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
    let streamed = false;
    let finished = false;
    let error: CohortError;
    try {
      const result = await request.model.doStream({ ...request.call, abortSignal: bound.signal });
      reader = result.stream.getReader();
      let text = '';
      const toolCalls: PendingToolCall[] = [];
      let usage: TokenUsage | undefined;
      let finishReason = 'unknown';
      let produced = 0;
      const streamedInputs = new Set<string>();
      const count = (chars: number) => {
        produced += chars;
        if (produced > maxChars) throw outputTooLong(maxChars);
      };
      // Counted as each call starts: the AI SDK gives a reply's complete calls only at its end.
      const callIds = new Set<string>();
      const countCall = (id: string) => {
        callIds.add(id);
        if (callIds.size > MAX_TOOL_CALLS_PER_REPLY) throw tooManyToolCalls();
      };
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        // A model that ignores the signal still stops here.
        if (bound.signal.aborted) throw bound.signal.reason;
        if (part.type === 'text-delta') {
          if (!part.delta) continue;
          count(part.delta.length);
          text += part.delta;
          streamed = true;
          yield { type: 'text-delta', step: request.step, text: part.delta };
        } else if (part.type === 'reasoning-delta') {
          count(part.delta.length);
        } else if (part.type === 'tool-input-start') {
          countCall(part.id);
        } else if (part.type === 'tool-input-delta') {
          streamedInputs.add(part.id);
          count(part.delta.length);
        } else if (part.type === 'tool-call') {
          countCall(part.toolCallId);
          // Arguments that arrive whole (no deltas) count here, once.
          if (!streamedInputs.has(part.toolCallId)) count(part.input.length);
          if (!part.providerExecuted) {
            toolCalls.push({
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: part.input,
            });
          }
        } else if (part.type === 'finish') {
          usage = toTokenUsage(part.usage);
          finishReason = part.finishReason.unified;
        } else if (part.type === 'error') {
          throw part.error;
        }
      }
      if (finishReason === 'error' && !text && toolCalls.length === 0) {
        throw new CohortError(
          'model_unavailable',
          'The model stopped with an error and no answer.',
        );
      }
      finished = true;
      return {
        text,
        toolCalls,
        usage: usage ?? toTokenUsage(undefined),
        finishReason,
        attempts: attempt + 1,
      };
    } catch (thrown) {
      error = toServiceError(thrown, {
        what: 'model call',
        timedOut: bound.timedOut(),
        timeoutMs: request.timeoutMs,
        cancelled: request.signal?.aborted === true,
      });
    } finally {
      // Cancelling the body closes the HTTP connection when the reader stops early.
      if (reader && !finished) reader.cancel().catch(() => undefined);
      bound.dispose();
    }
    if (streamed || attempt >= request.maxRetries || !isRetryable(error)) throw error;
    const delayMs = retryDelay(attempt + 1, error, request.retryDelayMs);
    yield {
      type: 'retry',
      step: request.step,
      attempt: attempt + 1,
      delayMs,
      message: error.message,
    };
    await sleep(delayMs, request.signal);
  }
}

function tooManyToolCalls(): CohortError {
  return new CohortError(
    'model_unavailable',
    `The model's reply asked for more than ${formatNumber(MAX_TOOL_CALLS_PER_REPLY)} tool calls (at most ${MAX_TOOL_CALLS_PER_STEP} run per reply); cohort stopped reading it. Check the model server (OPENAI_BASE_URL).`,
  );
}

function outputTooLong(maxChars: number): CohortError {
  return new CohortError(
    'model_unavailable',
    `The model call produced more than ${formatNumber(maxChars)} characters without finishing; cohort stopped reading it. Check the model server (OPENAI_BASE_URL).`,
  );
}
