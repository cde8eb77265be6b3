import { APICallError } from '@ai-sdk/provider';
import { boundedCall, DEFAULT_RETRY_DELAY_MS, formatDuration } from '../bounded-call/index.js';
import { carriedCohortError, clipText, CohortError } from '../errors/index.js';

/**
 * Most characters of a server's own error text kept in a {@link CohortError}'s message: enough to
 * say what went wrong, and a server that answers with megabytes does not fill logs and traces.
 */
export const MAX_SERVER_MESSAGE_CHARS = 500;

/** Longest wait between two attempts, whatever a `retry-after` header asks for. */
export const MAX_RETRY_DELAY_MS = 20_000;

/** How one bounded, retried call behaves. */
export interface RetryPolicy {
  /** Retries after the first attempt (config `model.maxRetries`, default 2). */
  maxRetries: number;
  /** Time limit of each attempt, in milliseconds. */
  timeoutMs: number;
  /** First backoff delay in milliseconds, doubled each retry (default 1000). */
  retryDelayMs?: number;
  /** The caller's cancellation; reaches the HTTP request. */
  signal?: AbortSignal;
  /** Called before each retry, for logs. */
  onRetry?: (info: { attempt: number; delayMs: number; error: CohortError }) => void;
}

/**
 * Turns whatever a model or embedding call threw into a {@link CohortError}: `aborted` when the
 * caller cancelled, `timeout` when the attempt timed out, else `model_unavailable` with the cause.
 */
export function toServiceError(
  error: unknown,
  context: { what: string; timedOut: boolean; timeoutMs: number; cancelled: boolean },
): CohortError {
  if (context.cancelled)
    return new CohortError('aborted', `The ${context.what} was cancelled.`, { cause: error });
  if (context.timedOut) {
    // "did not answer" misled for a slow model still streaming tokens when the limit came.
    return new CohortError(
      'timeout',
      `The ${context.what} did not finish within ${formatDuration(context.timeoutMs)} (model.timeoutSeconds bounds the whole call, an answer still being written included); raise it (COHORT_MODEL_TIMEOUT) or check the server.`,
      { cause: error },
    );
  }
  // A CohortError raised under the SDK (the response byte cap) keeps its own message.
  const carried = carriedCohortError(error);
  if (carried) return carried;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ? `HTTP ${error.statusCode}` : 'no response';
    const hint =
      error.statusCode === 401 || error.statusCode === 403
        ? ' Check OPENAI_API_KEY.'
        : error.statusCode === 404
          ? ' Check the model name and OPENAI_BASE_URL.'
          : '';
    return new CohortError(
      'model_unavailable',
      `The ${context.what} failed (${status}): ${clipText(error.message, MAX_SERVER_MESSAGE_CHARS)}.${hint}`,
      {
        cause: error,
      },
    );
  }
  const message = clipText(
    error instanceof Error ? error.message : String(error),
    MAX_SERVER_MESSAGE_CHARS,
  );
  return new CohortError('model_unavailable', `The ${context.what} failed: ${message}`, {
    cause: error,
  });
}

/** True for errors worth another attempt: 408, 409, 429, 5xx, network failures and timeouts. */
export function isRetryable(error: CohortError): boolean {
  if (error.code === 'timeout') return true;
  if (error.code !== 'model_unavailable') return false;
  const cause = error.cause;
  if (APICallError.isInstance(cause)) return cause.isRetryable;
  // fetch rejects with a TypeError when the connection fails before any response.
  return cause instanceof TypeError;
}

/** The wait before retry number `attempt` (1-based): the server's `retry-after` if sane, else backoff. */
export function retryDelay(
  attempt: number,
  error: CohortError,
  baseMs = DEFAULT_RETRY_DELAY_MS,
): number {
  const headers = APICallError.isInstance(error.cause) ? error.cause.responseHeaders : undefined;
  const asked = headers ? retryAfterMs(headers) : undefined;
  const backoff = baseMs * 2 ** (attempt - 1);
  return Math.min(asked ?? backoff, MAX_RETRY_DELAY_MS);
}

/**
 * A model or embedding call through the bounded-call helper: a timeout per attempt and up to
 * `maxRetries` retries with backoff (or the server's `retry-after`) on retryable errors; every
 * failure ends as a {@link CohortError} that names the model setting to check.
 *
 * @example
 * const vectors = await callWithRetry('embedding call', (signal) => model.doEmbed({ values, abortSignal: signal }), {
 *   maxRetries: 2, timeoutMs: 30_000, signal,
 * });
 */
export async function callWithRetry<T>(
  what: string,
  call: (signal: AbortSignal, attempt: number) => Promise<T>,
  policy: RetryPolicy,
): Promise<T> {
  return boundedCall(call, {
    ...policy,
    what,
    toError: (thrown, context) =>
      toServiceError(thrown, { what, timeoutMs: policy.timeoutMs, ...context }),
    isRetryable,
    retryDelay,
  });
}

function retryAfterMs(headers: Record<string, string>): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers['retry-after'];
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
