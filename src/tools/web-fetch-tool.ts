import * as z from 'zod';
import { boundedCall } from '../bounded-call/index.js';
import { CohortError } from '../errors/index.js';
import { htmlToText } from './html-to-text.js';
import { readCappedBody } from './read-capped-body.js';
import { assertPublicUrl, guardedFetch, type HostLookup } from './network-guard.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import { DEFAULT_MAX_OUTPUT_CHARS, truncateText } from './truncate-text.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Default limit on one page fetch, redirects included. */
export const DEFAULT_WEB_FETCH_TIMEOUT_MS = 30_000;
/** Redirects followed before giving up (each hop is checked against the network guard). */
export const WEB_FETCH_MAX_REDIRECTS = 5;
/** Bytes of a body read at most; the rest is never downloaded. */
export const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;

const WebFetchInput = lazySchema(() =>
  z.object({
    url: z.string().url().describe('The http(s) URL of the page to read.'),
  }),
);
type WebFetchInput = z.infer<typeof WebFetchInput>;
/** What `web_fetch` returns: the page as readable text. */
export type WebFetchResult = ToolOutcome<{
  url: string;
  status: number;
  contentType: string;
  title: string;
  text: string;
  truncated: boolean;
}>;

/** Options of {@link fetchReadable} and the `web_fetch` tool. */
export interface WebFetchOptions {
  allowPrivateNetwork?: boolean;
  timeoutMs?: number;
  maxOutputChars?: number;
  fetch?: typeof fetch;
  lookup?: HostLookup;
  signal?: AbortSignal;
}

/** One page read: the redirect hops (each checked by the guard), then the capped body. */
async function readPage(
  url: string,
  options: WebFetchOptions,
  signal: AbortSignal,
): Promise<WebFetchResult> {
  const doFetch = options.fetch ?? (options.allowPrivateNetwork ? fetch : guardedFetch);
  let current = new URL(url);
  let response: Response | undefined;
  for (let hop = 0; hop <= WEB_FETCH_MAX_REDIRECTS; hop += 1) {
    await assertPublicUrl(current, {
      allowPrivate: options.allowPrivateNetwork ?? false,
      lookup: options.lookup,
    });
    // Redirects are followed by hand so each target passes the guard too.
    response = await doFetch(current, {
      redirect: 'manual',
      signal,
      headers: {
        accept: 'text/html,text/plain,application/json;q=0.9,*/*;q=0.5',
        'user-agent': 'cohort/0.1',
      },
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel().catch(() => undefined);
      current = new URL(location, current);
      response = undefined;
      continue;
    }
    break;
  }
  if (!response)
    throw new CohortError(
      'invalid_input',
      `Too many redirects (more than ${WEB_FETCH_MAX_REDIRECTS}) from ${url}.`,
    );
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new CohortError(
      response.status === 404 ? 'not_found' : 'retrieval_unavailable',
      `Fetching ${current.href} failed with HTTP ${response.status}.`,
    );
  }
  if (!/^(text\/|application\/(json|xhtml\+xml|xml))/i.test(contentType) && contentType !== '') {
    await response.body?.cancel().catch(() => undefined);
    throw new CohortError(
      'invalid_input',
      `${current.href} is ${contentType}, not a text page; web_fetch reads HTML and text only.`,
    );
  }
  const { text: body } = await readCappedBody(response, WEB_FETCH_MAX_BYTES);
  const page =
    /html/i.test(contentType) || /^\s*<(!doctype|html)/i.test(body)
      ? htmlToText(body)
      : { title: '', text: body };
  const { text, truncated } = truncateText(
    page.text,
    options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
  );
  return {
    ok: true,
    url: current.href,
    status: response.status,
    contentType,
    title: page.title,
    text,
    truncated,
  };
}

/**
 * Fetches a web page and returns it as readable text (HTML through {@link htmlToText}; text, JSON
 * and markdown as they are). Private and loopback hosts are refused on every redirect hop unless
 * `allowPrivateNetwork`. Failures are values, never throws.
 *
 * @example
 * const page = await fetchReadable('https://example.com', { timeoutMs: 10_000 });
 * if (page.ok) console.log(page.title, page.text);
 */
export async function fetchReadable(
  url: string,
  options: WebFetchOptions = {},
): Promise<WebFetchResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEB_FETCH_TIMEOUT_MS;
  try {
    // One bound over every hop, the guard's lookups and the body read.
    return await boundedCall((signal) => readPage(url, options, signal), {
      what: `Fetching ${url}`,
      timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      toError: (error, { cancelled, timedOut }) =>
        fetchFailure(url, timeoutMs, error, cancelled, timedOut),
    });
  } catch (error) {
    return toolFailure(error);
  }
}

/** What went wrong with a page fetch, as the error the model reads. */
function fetchFailure(
  url: string,
  timeoutMs: number,
  error: unknown,
  cancelled: boolean,
  timedOut: boolean,
): CohortError {
  if (cancelled) return new CohortError('aborted', 'The fetch was cancelled.');
  if (timedOut)
    return new CohortError('timeout', `Fetching ${url} took longer than ${timeoutMs / 1000}s.`);
  // The connect-time guard's refusal arrives wrapped in fetch's "fetch failed".
  if (error instanceof TypeError && error.cause instanceof CohortError) return error.cause;
  if (error instanceof TypeError)
    return new CohortError('retrieval_unavailable', `Could not fetch ${url}: ${error.message}`);
  if (error instanceof CohortError) return error;
  return new CohortError('internal', error instanceof Error ? error.message : String(error));
}

/**
 * The `web_fetch` tool: reads one web page as text.
 *
 * @example
 * const tool = createWebFetchTool({ allowPrivateNetwork: false });
 * await tool.execute({ url: 'https://nodejs.org/en/about' }, {});
 */
export function createWebFetchTool(
  options: WebFetchOptions = {},
): CohortTool<WebFetchInput, WebFetchResult> {
  return {
    name: 'web_fetch',
    description:
      'Fetch a web page (http/https) and return its readable text: headings, paragraphs, lists and links.',
    inputSchema: WebFetchInput,
    execute: ({ url }, { signal }) =>
      fetchReadable(url, { ...options, ...(signal ? { signal } : {}) }),
  };
}
