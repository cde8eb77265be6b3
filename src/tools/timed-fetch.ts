import { boundedCall } from '../bounded-call/index.js';
import { CohortError } from '../errors/index.js';

/** The `fetch` signature adapters take, so tests can pass a fake or a local server. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Options of {@link timedFetch}. */
export interface TimedFetchOptions {
  /** Abort the request after this many milliseconds. */
  timeoutMs: number;
  /** The caller's signal; aborting it aborts the request. */
  signal?: AbortSignal;
  fetch?: FetchLike;
  /** Name of the service, for error messages ("arXiv"). */
  service: string;
}

/**
 * Fetches `url` through the bounded-call helper (one attempt), turning every failure into a
 * CohortError with a reason:
 * `timeout`, `aborted`, or `retrieval_unavailable` (network error or a non-2xx status).
 *
 * @example
 * const response = await timedFetch('https://export.arxiv.org/api/query?search_query=all:x', {}, { timeoutMs: 10_000, service: 'arXiv' });
 */
export async function timedFetch(
  url: string,
  init: RequestInit,
  options: TimedFetchOptions,
): Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  const response = await boundedCall((signal) => doFetch(url, { ...init, signal }), {
    what: options.service,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    toError(cause, { cancelled, timedOut }) {
      if (cancelled)
        return new CohortError('aborted', `${options.service} request was cancelled.`, { cause });
      if (timedOut)
        return new CohortError(
          'timeout',
          `${options.service} did not answer within ${options.timeoutMs} ms; try again or raise the timeout.`,
          { cause },
        );
      return new CohortError(
        'retrieval_unavailable',
        `${options.service} is unreachable: ${cause instanceof Error ? cause.message : String(cause)}. Check the network and the base URL.`,
        { cause },
      );
    },
  });
  if (!response.ok) {
    const body = await response.text().catch(() => '');
    const code = response.status === 429 ? 'rate_limited' : 'retrieval_unavailable';
    const hint =
      response.status === 401 || response.status === 403
        ? ' Check the API key.'
        : response.status === 429
          ? ' Wait a moment and retry, or set an API key.'
          : '';
    throw new CohortError(
      code,
      `${options.service} answered HTTP ${response.status}${body ? `: ${body.slice(0, 200)}` : ''}.${hint}`,
    );
  }
  return response;
}

/** Turns any thrown value into a CohortError, keeping CohortErrors as they are. */
export function toCohortError(error: unknown, service: string): CohortError {
  if (error instanceof CohortError) return error;
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new CohortError(
      'timeout',
      `${service} did not finish in time; try again or raise the timeout.`,
      {
        cause: error,
      },
    );
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return new CohortError('aborted', `${service} request was cancelled.`, { cause: error });
  }
  return new CohortError(
    'internal',
    `${service} failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
