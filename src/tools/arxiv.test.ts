import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arxivQuery, arxivSearch } from './arxiv.js';
import { startFixtureServer, type FixtureServer } from '../test/fixture-server.js';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('arxivSearch against a replayed Atom API', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer((_request, url) => {
      const query = url.searchParams.get('search_query') ?? '';
      if (query.includes('broken'))
        return { status: 503, body: 'Service Unavailable', type: 'text/plain' };
      if (query.includes('slow'))
        return {
          body: fixture('arxiv-search.atom.xml'),
          type: 'application/atom+xml',
          delayMs: 1500,
        };
      if (url.searchParams.get('max_results') === '0')
        return { body: fixture('arxiv-error.atom.xml'), type: 'application/atom+xml' };
      return { body: fixture('arxiv-search.atom.xml'), type: 'application/atom+xml' };
    });
  });
  afterAll(() => server.close());

  it('sends the query API parameters and parses title, authors, abstract, date and URL', async () => {
    const outcome = await arxivSearch('How do humanoid robots keep balance?', {
      baseUrl: `${server.url}/api/query`,
      maxResults: 2,
    });
    expect(server.hits.at(-1)).toContain(
      '/api/query?search_query=all%3Ahumanoid+AND+all%3Arobots+AND+all%3Akeep+AND+all%3Abalance&start=0&max_results=2',
    );
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.papers).toHaveLength(2);
    expect(outcome.papers[0]).toEqual({
      identifier: 'http://arxiv.org/abs/2401.01234v2',
      sourceType: 'paper',
      title: 'Whole-Body Balance Control for Humanoid Robots with Model Predictive Control',
      content: expect.stringMatching(
        /^We present a model predictive controller .* runs at 500 Hz on the robot\.$/,
      ),
      url: 'http://arxiv.org/abs/2401.01234v2',
      authors: ['Ada Lovelace', 'Alan Turing'],
      published: '2024-01-03',
    });
    expect(outcome.papers[1]?.authors).toEqual(['Grace Hopper']);
  });

  it("reports arXiv's error entry as a value", async () => {
    const outcome = await arxivSearch('balance', { baseUrl: server.url, maxResults: 0 });
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringContaining('max_results must be non-negative'),
    });
  });

  it('reports an HTTP error and a timeout as values', async () => {
    expect(await arxivSearch('broken thing', { baseUrl: server.url })).toMatchObject({
      ok: false,
      code: 'retrieval_unavailable',
      error: expect.stringContaining('HTTP 503'),
    });
    expect(await arxivSearch('slow thing', { baseUrl: server.url, timeoutMs: 200 })).toMatchObject({
      ok: false,
      code: 'timeout',
    });
  });

  it('builds a query of the meaningful words', () => {
    expect(arxivQuery('What is the zero moment point?')).toBe(
      'all:zero AND all:moment AND all:point',
    );
  });
});
