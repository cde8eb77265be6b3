import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arxivSearch } from './arxiv.js';
import { semanticScholarSearch } from './semantic-scholar.js';
import { tavilySearch, WEB_SEARCH_MAX_BYTES } from './tavily.js';
import { SERVICE_MAX_RESPONSE_BYTES } from './timed-fetch.js';
import { fetchReadable } from './web-fetch-tool.js';

// The web tools' waits go through the bounded-call helper: a deadline over the whole request (body
// included), the caller's cancellation, and each failure mapped to a code and a message.

/**
 * Paths: /hang never answers; /stall sends headers and part of a body, then nothing; /endless
 * sends a body without end (until the client hangs up).
 */
const open: ServerResponse[] = [];
const chunk = Buffer.alloc(64 * 1024, 'a');
const server = createServer((request, response) => {
  open.push(response);
  if (request.url?.startsWith('/endless')) {
    response.writeHead(200, { 'content-type': 'application/json' });
    const pump = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once('drain', pump);
    };
    pump();
  }
  if (request.url?.startsWith('/stall')) {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.write('<html><body>first part');
  }
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of open) response.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A port nothing listens on: a closed server's. */
async function closedPort(): Promise<string> {
  const spare = createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  const port = (spare.address() as AddressInfo).port;
  await new Promise<void>((resolve) => spare.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('tavilySearch bounds', () => {
  const search = (path: string, extra: Partial<Parameters<typeof tavilySearch>[1]> = {}) =>
    tavilySearch('q', { apiKey: 'k', baseUrl: `${base}${path}`, timeoutMs: 150, ...extra });

  it('times out on a service that never answers, and on one that stalls mid-body', async () => {
    expect(await search('/hang')).toEqual({
      ok: false,
      code: 'timeout',
      error: 'The web search took longer than 0.15s.',
    });
    expect(await search('/stall')).toMatchObject({ ok: false, code: 'timeout' });
  });

  it('reports a cancelled search as aborted, not as a timeout', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await search('/hang', { timeoutMs: 5_000, signal: controller.signal })).toEqual({
      ok: false,
      code: 'aborted',
      error: 'The web search was cancelled.',
    });
  });

  it('reports an unreachable service as retrieval_unavailable', async () => {
    const found = await tavilySearch('q', { apiKey: 'k', baseUrl: await closedPort() });
    expect(found).toMatchObject({ ok: false, code: 'retrieval_unavailable' });
    expect(found.ok ? '' : found.error).toMatch(/^The web search service could not be reached/);
  });
});

// The API tools read their answers as web_fetch reads a page, up to a size: an endless body was
// read whole into memory (outside report).
describe('API answers are read up to a size', () => {
  const mb = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

  it('tavilySearch fails on an endless answer, naming the limit', async () => {
    const found = await tavilySearch('q', {
      apiKey: 'k',
      baseUrl: `${base}/endless`,
      timeoutMs: 20_000,
    });
    expect(found).toEqual({
      ok: false,
      code: 'retrieval_unavailable',
      error: `The web search service sent more than ${mb(WEB_SEARCH_MAX_BYTES)} without ending; cohort stopped reading it. Check tools.tavilyBaseUrl.`,
    });
  }, 30_000);

  it('arxivSearch and semanticScholarSearch fail on an endless answer, naming the limit', async () => {
    const options = { baseUrl: `${base}/endless`, timeoutMs: 20_000 };
    expect(await arxivSearch('robots', options)).toEqual({
      ok: false,
      code: 'retrieval_unavailable',
      error: `arXiv sent more than ${mb(SERVICE_MAX_RESPONSE_BYTES)} without ending; cohort stopped reading it. Check the service's base URL.`,
    });
    expect(await semanticScholarSearch('robots', { ...options, apiKey: 'k' })).toMatchObject({
      ok: false,
      code: 'retrieval_unavailable',
      error: expect.stringContaining('Semantic Scholar sent more than') as unknown,
    });
  }, 30_000);
});

describe('paper searches: the deadline covers the body', () => {
  // Found by an outside tester: the deadline ended with the headers, so a service that sent them
  // and then stalled held the search (and the research task) until the tool call's own limit.
  it('arxivSearch and semanticScholarSearch time out on an answer that stalls mid-body', async () => {
    const options = { baseUrl: `${base}/stall`, timeoutMs: 150 };
    const within = <T>(search: Promise<T>) =>
      Promise.race([
        search,
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 5_000)),
      ]);
    expect(await within(arxivSearch('robots', options))).toMatchObject({
      ok: false,
      code: 'timeout',
      error: expect.stringContaining('arXiv') as unknown,
    });
    expect(
      await within(semanticScholarSearch('robots', { ...options, apiKey: 'k' })),
    ).toMatchObject({ ok: false, code: 'timeout' });
  }, 30_000);
});

describe('fetchReadable bounds', () => {
  const read = (path: string, extra: Parameters<typeof fetchReadable>[1] = {}) =>
    fetchReadable(`${base}${path}`, { allowPrivateNetwork: true, timeoutMs: 150, ...extra });

  it('times out on a page that never answers, and on one that stalls mid-body', async () => {
    expect(await read('/hang')).toEqual({
      ok: false,
      code: 'timeout',
      error: `Fetching ${base}/hang took longer than 0.15s.`,
    });
    expect(await read('/stall')).toMatchObject({ ok: false, code: 'timeout' });
  });

  it('reports a cancelled fetch as aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await read('/hang', { timeoutMs: 5_000, signal: controller.signal })).toEqual({
      ok: false,
      code: 'aborted',
      error: 'The fetch was cancelled.',
    });
  });

  it('reports an unreachable host as retrieval_unavailable', async () => {
    const url = await closedPort();
    const page = await fetchReadable(url, { allowPrivateNetwork: true });
    expect(page).toMatchObject({ ok: false, code: 'retrieval_unavailable' });
    expect(page.ok ? '' : page.error).toMatch(new RegExp(`^Could not fetch ${url}`));
  });
});
