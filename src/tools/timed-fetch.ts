import { boundedCall } from '../bounded-call/index.js';
import { CohortError } from '../errors/index.js';
import { readCappedBody } from './read-capped-body.js';

/**
 * Most bytes read of one API answer (arXiv's Atom feed, Semantic Scholar's JSON). A hundred papers
 * with their abstracts is well under a megabyte; only an endpoint that sends without end reaches it.
 */
export const SERVICE_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Bytes of an error answer read for its message (200 characters are shown). */
const ERROR_BODY_BYTES = 4 * 1024;

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
  // The bounded call's signal ends with the headers; the body is read after it returns. The
  // deadline and the caller's signal go to fetch too, which aborts the body's stream with them: a
  // service that sent its headers and then stalled held the read (and a research task) for good.
  const deadlines = [
    AbortSignal.timeout(options.timeoutMs),
    ...(options.signal ? [options.signal] : []),
  ];
  const response = await boundedCall(
    (signal) => doFetch(url, { ...init, signal: AbortSignal.any([signal, ...deadlines]) }),
    {
      what: options.service,
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      toError(cause, { cancelled, timedOut }) {
        if (cancelled)
          return new CohortError('aborted', `${options.service} request was cancelled.`, { cause });
        // The body's deadline (the same length) may fire a moment before the call's own.
        if (timedOut || (cause instanceof Error && cause.name === 'TimeoutError'))
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
    },
  );
  if (!response.ok) {
    const body = (await readCappedBody(response, ERROR_BODY_BYTES).catch(() => ({ text: '' })))
      .text;
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

/**
 * The text of a service's answer, at most `maxBytes` of it; a longer one is a
 * `retrieval_unavailable` error naming the service, since a cut feed or JSON does not parse.
 *
 * @example
 * const xml = await readServiceText(response, { service: 'arXiv' });
 */
export async function readServiceText(
  response: Response,
  options: { service: string; maxBytes?: number },
): Promise<string> {
  const maxBytes = options.maxBytes ?? SERVICE_MAX_RESPONSE_BYTES;
  const { text, exceeded } = await readCappedBody(response, maxBytes);
  if (exceeded)
    throw new CohortError(
      'retrieval_unavailable',
      `${options.service} sent more than ${maxBytes / (1024 * 1024)} MB without ending; cohort stopped reading it. Check the service's base URL.`,
    );
  return text;
}
