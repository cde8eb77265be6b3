import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../test/fixture-server.js';
import { semanticScholarSearch } from './semantic-scholar.js';

const body = readFileSync(
  new URL('./fixtures/semantic-scholar-search.json', import.meta.url),
  'utf8',
);

describe('semanticScholarSearch against a replayed Graph API', () => {
  let server: FixtureServer;
  const keys: (string | undefined)[] = [];
  beforeAll(async () => {
    server = await startFixtureServer((request) => {
      const key = request.headers['x-api-key'];
      keys.push(typeof key === 'string' ? key : undefined);
      if (key === 'spent') return { status: 429, body: '{"message":"Too Many Requests"}' };
      if (key !== 'k1') return { status: 403, body: '{"message":"Forbidden"}' };
      return { body };
    });
  });
  afterAll(() => server.close());

  it('sends the key and fields and parses the papers', async () => {
    const outcome = await semanticScholarSearch('sim to real', {
      apiKey: 'k1',
      baseUrl: `${server.url}/graph/v1/`,
      maxResults: 2,
    });
    expect(server.hits.at(-1)).toBe(
      'GET /graph/v1/paper/search?query=sim+to+real&fields=title%2Cauthors%2Cabstract%2Cyear%2Curl%2CexternalIds&limit=2',
    );
    expect(keys.at(-1)).toBe('k1');
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.papers[0]).toEqual({
      identifier: 'https://www.semanticscholar.org/paper/649def34f8be52c8b66281af98ae884c09aef38b',
      sourceType: 'paper',
      title: 'Sim-to-Real Transfer for Humanoid Locomotion',
      content: 'We study how policies trained in simulation transfer to humanoid hardware.',
      url: 'https://www.semanticscholar.org/paper/649def34f8be52c8b66281af98ae884c09aef38b',
      authors: ['Oren Etzioni', 'Ada Lovelace'],
      published: '2023',
    });
    // No URL in the answer: the arXiv id gives one.
    expect(outcome.papers[1]).toMatchObject({
      url: 'https://arxiv.org/abs/2101.00002',
      content: '',
      authors: [],
    });
  });

  it('reports a missing key, a refused key and rate limiting as values', async () => {
    expect(await semanticScholarSearch('x', { apiKey: '', baseUrl: server.url })).toMatchObject({
      ok: false,
      code: 'unauthorized',
    });
    expect(await semanticScholarSearch('x', { apiKey: 'bad', baseUrl: server.url })).toMatchObject({
      ok: false,
      error: expect.stringContaining('Check the API key'),
    });
    expect(
      await semanticScholarSearch('x', { apiKey: 'spent', baseUrl: server.url }),
    ).toMatchObject({ ok: false, code: 'rate_limited' });
  });
});
