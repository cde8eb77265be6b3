import { describe, expect, it } from 'vitest';
import { unknownQueryParameter } from './query-parameters.js';
import { errorOf } from '../test/api-error-of.js';
import { suiteStore, testServer } from '../test/test-server.js';

const store = suiteStore();
const app = () => testServer(store());

const SESSION = '7f0c2b1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('query parameters a route does not read', () => {
  it('are a 400 naming the parameter and what the route takes, on every API route', async () => {
    // They were dropped without a word: GET /agents?domain=hardware listed every agent, and
    // ?limt=5 on a session's messages returned the default 100 (outside tester's finding).
    const cases: Array<[string, string, string?]> = [
      ['GET', '/agents?domain=hardware'],
      ['GET', '/healthz?verbose=1'],
      ['GET', '/openapi.json?format=yaml'],
      ['GET', `/sessions/${SESSION}/messages?limt=5`],
      ['GET', `/sessions/${SESSION}/messages?limit=5&offset=10`],
      ['DELETE', `/sessions/${SESSION}?force=1`],
      ['GET', `/runs/${SESSION}/trace?format=otlp`],
      ['POST', '/route?stream=true', '{"query":"What is a topic?"}'],
      ['POST', '/chat?session_id=x', '{"query":"What is a topic?"}'],
    ];
    for (const [method, path, body] of cases) {
      const res = await app().request(path, {
        method,
        ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
      });
      const name = new URLSearchParams(path.slice(path.indexOf('?'))).keys().next().value;
      const error = await errorOf(res);
      expect(error, path).toMatchObject({ status: 400, code: 'bad_request' });
      const wrong = path.includes('limit=5&offset') ? 'offset' : name;
      expect(error.field, path).toBe(wrong);
      expect(error.message, path).toContain(`Unknown query parameter "${wrong}"`);
    }
    const limited = await errorOf(await app().request(`/sessions/${SESSION}/messages?limt=5`));
    expect(limited.message).toMatch(/takes only limit/);
  });

  it("leaves a route's own parameters, unknown paths, wrong methods, the page and /v1 alone", async () => {
    expect((await app().request(`/sessions/${SESSION}/messages?limit=5`)).status).toBe(404);
    expect((await app().request('/nowhere?x=1')).status).toBe(404);
    expect((await app().request('/agents?x=1', { method: 'POST' })).status).toBe(405);
    expect((await app().request('/?utm_source=mail')).status).toBe(200);
    expect((await app().request('/v1/models?api-version=2024-06-01')).status).toBe(200);
    expect((await app().request('/agents?')).status).toBe(200);
    expect(unknownQueryParameter('/app.js', '?v=3')).toBeUndefined();
  });
});
