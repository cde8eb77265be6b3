import { CohortError } from '../errors/index.js';

/** A bounded step's outcome: its value, or why it stopped (never thrown). */
export type Timed<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'timeout' | 'aborted' | 'error'; message: string; error?: unknown };

/** Options of {@link runWithTimeout}. */
export interface RunWithTimeoutOptions {
  /** Limit in milliseconds. */
  ms: number;
  /** The caller's signal: aborting it stops the step too. */
  signal?: AbortSignal;
  /** What the step is, for the reason text ("retrieval"). */
  what: string;
}

/**
 * Runs `step` with its own AbortSignal, bounded by `ms` and by the caller's signal. A step that
 * ignores its signal is still cut off: the race settles and the result is dropped. Failures come
 * back as values so one slow or broken part degrades instead of crashing the run.
 *
 * @example
 * const timed = await runWithTimeout((signal) => retriever.retrieve(q, { signal }), { ms: 30_000, what: 'retrieval' });
 * if (!timed.ok) console.log(timed.message); // "retrieval timed out after 30 s"
 */
export async function runWithTimeout<T>(
  step: (signal: AbortSignal) => Promise<T>,
  options: RunWithTimeoutOptions,
): Promise<Timed<T>> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<Timed<T>>((resolve) => {
    const stop = (reason: 'timeout' | 'aborted', message: string) => {
      controller.abort(new CohortError(reason, message));
      resolve({ ok: false, reason, message });
    };
    timer = setTimeout(
      () => stop('timeout', `${options.what} timed out after ${formatSeconds(options.ms)}`),
      options.ms,
    );
    onAbort = () => stop('aborted', `${options.what} was cancelled`);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const ran = (async (): Promise<Timed<T>> => {
    try {
      return { ok: true, value: await step(controller.signal) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: 'error', message: `${options.what} failed: ${message}`, error };
    }
  })();
  try {
    return await Promise.race([stopped, ran]);
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  }
}

/** "30 s", "250 ms": timeouts read the way they were configured. */
export function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
