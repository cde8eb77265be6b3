import { CohortError, isCohortError } from '../errors/index.js';

/**
 * Every wait in cohort is bounded (DESIGN: "Every wait has a bound"): a model call, an embedding
 * call, a web or paper search, a research step. This module is the one place that bound is
 * written: a deadline per attempt joined with the caller's cancellation, retries with backoff, and
 * the mapping of whatever went wrong to a {@link CohortError}.
 */

/** First backoff delay when a caller gives none; doubled on each retry. */
export const DEFAULT_RETRY_DELAY_MS = 1000;

/**
 * Longest wait a timer can hold, in milliseconds (about 24.8 days): Node keeps a timer's delay in a
 * signed 32-bit integer and fires one asked for longer after 1 ms, so a huge limit meant as "no
 * limit" would cut every call at once. Settings stay below it (config `MAX_DURATION_SECONDS`), and
 * every timer here is armed through {@link timerDelay}.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `ms` as a timer can wait it: a longer wait is the longest a timer can hold, never 1 ms.
 *
 * @example
 * setTimeout(onDeadline, timerDelay(3_000_000 * 1000)); // fires after ~24.8 days, not at once
 */
export function timerDelay(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}

/** What went wrong on an attempt, as the error mapping sees it. */
export interface FailureContext {
  /** This attempt's own deadline fired. */
  timedOut: boolean;
  /** The caller's signal aborted. */
  cancelled: boolean;
}

/** How a bounded call behaves; only `what` and `timeoutMs` are required. */
export interface BoundedCallOptions {
  /** What is being waited for, as messages name it ("the model call", "arXiv", "retrieval"). */
  what: string;
  /** Limit of each attempt, in milliseconds. */
  timeoutMs: number;
  /** The caller's cancellation; reaches the call through the attempt's signal. */
  signal?: AbortSignal;
  /** Retries after the first attempt (default 0). */
  maxRetries?: number;
  /** First backoff delay, doubled each retry (default {@link DEFAULT_RETRY_DELAY_MS}). */
  retryDelayMs?: number;
  /** Maps a failure to the error a user reads (default: {@link defaultFailure}). */
  toError?: (thrown: unknown, context: FailureContext) => CohortError;
  /** Whether an error is worth another attempt (default: timeouts only). */
  isRetryable?: (error: CohortError) => boolean;
  /** The wait before retry `attempt` (1-based); default exponential backoff. */
  retryDelay?: (attempt: number, error: CohortError, baseMs: number) => number;
  /** Called before each retry, for logs and progress events. */
  onRetry?: (info: { attempt: number; delayMs: number; error: CohortError }) => void;
}

/** One attempt's signal: aborts on the caller's signal or on the attempt's deadline. */
export interface AttemptSignal {
  readonly signal: AbortSignal;
  /** True when this attempt's own deadline fired (not the caller's cancellation). */
  timedOut(): boolean;
  /** Clears the timer; call when the attempt ends. */
  dispose(): void;
}

/**
 * Creates the signal of one attempt. The timer is cleared by `dispose`, so a finished call leaves
 * nothing behind. For calls that stream (a model turn) and so cannot be one promise.
 *
 * @example
 * const attempt = attemptSignal(signal, 30_000);
 * try { await model.doStream({ prompt, abortSignal: attempt.signal }); } finally { attempt.dispose(); }
 */
export function attemptSignal(parent: AbortSignal | undefined, timeoutMs: number): AttemptSignal {
  const controller = new AbortController();
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    controller.abort(new CohortError('timeout', `No answer within ${formatDuration(timeoutMs)}.`));
  }, timerDelay(timeoutMs));
  const onAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onAbort();
  else parent?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => fired,
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onAbort);
    },
  };
}

/** "30 s", "250 ms": a limit read the way it was configured. */
export function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/**
 * The default mapping: `aborted` when the caller cancelled, `timeout` when the deadline fired, a
 * CohortError as it is, anything else `internal` with the cause's message.
 */
export function defaultFailure(what: string, timeoutMs: number) {
  return (thrown: unknown, context: FailureContext): CohortError => {
    if (context.cancelled)
      return new CohortError('aborted', `${what} was cancelled`, { cause: thrown });
    if (context.timedOut)
      return new CohortError('timeout', `${what} timed out after ${formatDuration(timeoutMs)}`, {
        cause: thrown,
      });
    if (isCohortError(thrown)) return thrown;
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return new CohortError('internal', `${what} failed: ${message}`, { cause: thrown });
  };
}

/** Waits `ms`, ending early with an `aborted` error when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CohortError('aborted', 'The request was cancelled.'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CohortError('aborted', 'The request was cancelled.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, timerDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles when `signal` aborts, with its reason; a call that ignores its signal is still cut off. */
function whenAborted(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let onAbort: (() => void) | undefined;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // The race may settle the other way; an unobserved rejection must not crash the process.
  promise.catch(() => undefined);
  return { promise, dispose: () => onAbort && signal.removeEventListener('abort', onAbort) };
}

/**
 * Runs `call` bounded by `timeoutMs` per attempt and by the caller's signal, retrying retryable
 * failures with backoff. A call that ignores its signal is cut off all the same. Every failure
 * ends as a {@link CohortError} from `toError`.
 *
 * @example
 * const page = await boundedCall((signal) => fetch(url, { signal }), { what: 'arXiv', timeoutMs: 10_000 });
 */
export async function boundedCall<T>(
  call: (signal: AbortSignal, attempt: number) => Promise<T>,
  options: BoundedCallOptions,
): Promise<T> {
  const toError = options.toError ?? defaultFailure(options.what, options.timeoutMs);
  const retryable = options.isRetryable ?? ((error: CohortError) => error.code === 'timeout');
  const baseDelay = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  for (let attempt = 0; ; attempt++) {
    const bound = attemptSignal(options.signal, options.timeoutMs);
    const aborted = whenAborted(bound.signal);
    let error: CohortError;
    try {
      return await Promise.race([call(bound.signal, attempt), aborted.promise]);
    } catch (thrown) {
      error = toError(thrown, {
        timedOut: bound.timedOut(),
        cancelled: options.signal?.aborted === true,
      });
    } finally {
      aborted.dispose();
      bound.dispose();
    }
    if (attempt >= (options.maxRetries ?? 0) || !retryable(error)) throw error;
    const delayMs = options.retryDelay
      ? options.retryDelay(attempt + 1, error, baseDelay)
      : baseDelay * 2 ** attempt;
    options.onRetry?.({ attempt: attempt + 1, delayMs, error });
    await sleep(delayMs, options.signal);
  }
}

/** A bounded step's outcome as a value: what it returned, or why it stopped. */
export type Bounded<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'timeout' | 'aborted' | 'error'; message: string; error?: unknown };

/**
 * {@link boundedCall} for steps that degrade instead of failing (research nodes): one attempt, and
 * the failure comes back as a value with its reason, never thrown.
 *
 * @example
 * const found = await settleBounded((signal) => retriever.retrieve(q, { signal }), { what: 'retrieval', timeoutMs: 30_000 });
 * if (!found.ok) console.log(found.message); // "retrieval timed out after 30 s"
 */
export async function settleBounded<T>(
  step: (signal: AbortSignal) => Promise<T>,
  options: Pick<BoundedCallOptions, 'what' | 'timeoutMs' | 'signal'>,
): Promise<Bounded<T>> {
  const failure: { reason: 'timeout' | 'aborted' | 'error'; cause?: unknown } = { reason: 'error' };
  try {
    return {
      ok: true,
      value: await boundedCall(step, {
        ...options,
        toError(thrown, context) {
          failure.reason = context.cancelled ? 'aborted' : context.timedOut ? 'timeout' : 'error';
          failure.cause = thrown;
          if (failure.reason !== 'error')
            return defaultFailure(options.what, options.timeoutMs)(thrown, context);
          const message = thrown instanceof Error ? thrown.message : String(thrown);
          return new CohortError('internal', `${options.what} failed: ${message}`, {
            cause: thrown,
          });
        },
      }),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failure.reason === 'error'
      ? { ok: false, reason: 'error', message, error: failure.cause }
      : { ok: false, reason: failure.reason, message };
  }
}
