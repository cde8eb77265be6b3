import * as z from 'zod';
import { boundedCall } from '../bounded-call/index.js';
import { CohortError } from '../errors/index.js';
import { readCappedBody, type CappedBody } from './read-capped-body.js';
import { toolFailure, type ToolFailure } from './tool.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Tavily's public endpoint (config `tools.tavilyBaseUrl` overrides it). */
export const DEFAULT_TAVILY_BASE_URL = 'https://api.tavily.com';
/** Default limit on one search request. */
export const DEFAULT_WEB_SEARCH_TIMEOUT_MS = 30_000;
/**
 * Most bytes read of one search answer: room for twenty hits with their raw page text
 * (`includeRawContent`); only an endpoint that sends without end reaches it.
 */
export const WEB_SEARCH_MAX_BYTES = 16 * 1024 * 1024;

/** One web search hit. */
export const WebSearchHit = lazySchema(() =>
  z.object({
    title: z.string().default(''),
    url: z.string(),
    content: z.string().default(''),
    score: z.number().optional(),
    rawContent: z.string().optional(),
    publishedDate: z.string().optional(),
  }),
);
export type WebSearchHit = z.infer<typeof WebSearchHit>;

/** A successful search: the hits, and Tavily's short answer when one was asked for. */
export interface WebSearchSuccess {
  ok: true;
  query: string;
  answer?: string;
  results: WebSearchHit[];
}
/** What {@link tavilySearch} returns: hits, or a failure value with a reason (never a throw). */
export type WebSearchOutcome = WebSearchSuccess | (ToolFailure & { status?: number });

/** Options of one search. */
export interface TavilySearchOptions {
  apiKey: string | undefined;
  baseUrl?: string;
  maxResults?: number;
  includeRawContent?: boolean;
  includeAnswer?: boolean;
  searchDepth?: 'basic' | 'advanced';
  topic?: 'general' | 'news';
  includeDomains?: string[];
  excludeDomains?: string[];
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/** The wire format of a Tavily response (snake_case), validated leniently. */
const TavilyResponse = lazySchema(() =>
  z.object({
    answer: z.string().nullish(),
    results: z.array(
      z.object({
        title: z.string().nullish(),
        url: z.string(),
        content: z.string().nullish(),
        score: z.number().nullish(),
        raw_content: z.string().nullish(),
        published_date: z.string().nullish(),
      }),
    ),
  }),
);

const failure = (code: ToolFailure['code'], error: string, status?: number) => ({
  ok: false as const,
  code,
  error,
  ...(status === undefined ? {} : { status }),
});

/**
 * Searches the web through a Tavily-compatible API (`POST {baseUrl}/search`, bearer key). Every
 * problem (no key, HTTP error, timeout, malformed body) comes back as a failure value.
 *
 * @example
 * const found = await tavilySearch('pgvector HNSW index', { apiKey: process.env.TAVILY_API_KEY, maxResults: 5 });
 * if (found.ok) for (const hit of found.results) console.log(hit.title, hit.url);
 */
export async function tavilySearch(
  query: string,
  options: TavilySearchOptions,
): Promise<WebSearchOutcome> {
  if (!options.apiKey) {
    return failure(
      'unauthorized',
      'Web search is not configured: set TAVILY_API_KEY (or tools.tavilyApiKey).',
    );
  }
  if (!query.trim()) return failure('invalid_input', 'The search query is empty.');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEB_SEARCH_TIMEOUT_MS;
  const url = `${(options.baseUrl ?? DEFAULT_TAVILY_BASE_URL).replace(/\/+$/, '')}/search`;
  let response: Response;
  let body: CappedBody;
  try {
    // The bound covers the body too: a service that sends headers and then stalls still times out.
    ({ response, body } = await boundedCall(
      async (signal) => {
        const answered = await doFetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${options.apiKey}`,
          },
          body: JSON.stringify({
            query,
            max_results: options.maxResults ?? 5,
            include_raw_content: options.includeRawContent ?? false,
            include_answer: options.includeAnswer ?? false,
            search_depth: options.searchDepth ?? 'basic',
            topic: options.topic ?? 'general',
            ...(options.includeDomains ? { include_domains: options.includeDomains } : {}),
            ...(options.excludeDomains ? { exclude_domains: options.excludeDomains } : {}),
          }),
          signal,
        });
        const read = await readCappedBody(answered, WEB_SEARCH_MAX_BYTES).catch(() => ({
          text: '',
          exceeded: false,
        }));
        return { response: answered, body: read };
      },
      {
        what: 'The web search',
        timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        toError(cause, { cancelled, timedOut }) {
          if (cancelled) return new CohortError('aborted', 'The web search was cancelled.');
          if (timedOut)
            return new CohortError(
              'timeout',
              `The web search took longer than ${timeoutMs / 1000}s.`,
            );
          return new CohortError(
            'retrieval_unavailable',
            `The web search service could not be reached: ${(cause as Error).message}`,
          );
        },
      },
    ));
  } catch (error) {
    return toolFailure(error);
  }
  const { text } = body;
  if (!response.ok) {
    const detail = text.slice(0, 200);
    const code =
      response.status === 401 || response.status === 403
        ? 'unauthorized'
        : response.status === 429
          ? 'rate_limited'
          : response.status >= 500
            ? 'retrieval_unavailable'
            : 'invalid_input';
    const hint =
      code === 'unauthorized'
        ? ' Check TAVILY_API_KEY.'
        : code === 'rate_limited'
          ? ' Try again later.'
          : '';
    return failure(
      code,
      `The web search failed with HTTP ${response.status}${detail ? `: ${detail}` : ''}.${hint}`,
      response.status,
    );
  }
  if (body.exceeded) {
    return failure(
      'retrieval_unavailable',
      `The web search service sent more than ${WEB_SEARCH_MAX_BYTES / (1024 * 1024)} MB without ending; cohort stopped reading it. Check tools.tavilyBaseUrl.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failure(
      'retrieval_unavailable',
      'The web search service answered with something that is not JSON.',
    );
  }
  const parsed = TavilyResponse.safeParse(json);
  if (!parsed.success) {
    return failure(
      'retrieval_unavailable',
      'The web search service answered in an unexpected format (no results list).',
    );
  }
  const results = parsed.data.results.map((hit) =>
    WebSearchHit.parse({
      title: hit.title ?? '',
      url: hit.url,
      content: hit.content ?? '',
      ...(typeof hit.score === 'number' ? { score: hit.score } : {}),
      ...(hit.raw_content ? { rawContent: hit.raw_content } : {}),
      ...(hit.published_date ? { publishedDate: hit.published_date } : {}),
    }),
  );
  return {
    ok: true,
    query,
    ...(parsed.data.answer ? { answer: parsed.data.answer } : {}),
    results,
  };
}
