import { describe, expect, it } from 'vitest';
import { createLogger } from '../telemetry/index.js';
import { suiteStore, testServer } from '../test/test-server.js';

const store = suiteStore();
const serve = (server: Parameters<typeof testServer>[1]) => testServer(store(), server);

const post = (app: ReturnType<typeof serve>, path: string, headers: Record<string, string> = {}) =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: 'What is a topic?' }),
  });

describe('bearer-token auth', () => {
  const app = () => serve({ server: { apiKey: 's3cret' } });

  it('is 401 without the key or with a wrong one, and says what to send', async () => {
    const missing = await post(app(), '/chat');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    expect(await missing.json()).toMatchObject({
      error: { code: 'unauthorized', message: expect.stringContaining('Authorization: Bearer') },
    });
    expect((await post(app(), '/chat', { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await app().request('/agents')).status).toBe(401);
    expect((await app().request('/v1/models')).status).toBe(401);
  });

  it('says a Bearer header without a key is missing a key, not wrong (still 401)', async () => {
    // `Authorization: Bearer` with nothing after it said "The API key is wrong" (outside report).
    for (const authorization of ['Bearer', 'Bearer   ', 'bearer \t']) {
      const response = await post(app(), '/chat', { authorization });
      expect(response.status, authorization).toBe(401);
      expect(await response.json(), authorization).toMatchObject({
        error: {
          code: 'unauthorized',
          message: expect.stringMatching(/^The API key is missing/) as unknown,
        },
      });
    }
    const wrong = await post(app(), '/chat', { authorization: 'Bearer nope' });
    expect(await wrong.json()).toMatchObject({
      error: { message: expect.stringMatching(/^The API key is wrong/) as unknown },
    });
  });

  it('lets the key through, and keeps /healthz and the page open', async () => {
    expect((await post(app(), '/chat', { authorization: 'Bearer s3cret' })).status).toBe(200);
    expect((await app().request('/healthz')).status).toBe(200);
    expect((await app().request('/')).status).toBe(200);
    expect((await app().request('/app.js')).status).toBe(200);
  });
});

describe('CORS', () => {
  it('allows only the configured origins and answers preflight', async () => {
    const app = serve({ server: { corsOrigins: ['https://book.example'] } });
    const allowed = await app.request('/agents', { headers: { origin: 'https://book.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://book.example');
    expect(allowed.headers.get('access-control-expose-headers')).toContain('x-request-id');
    const other = await app.request('/agents', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await app.request('/chat', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://book.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization',
    );
  });

  it('sends no CORS headers when no origin is configured', async () => {
    const response = await serve({}).request('/agents', {
      headers: { origin: 'https://x.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('rate limit', () => {
  it('is 429 with Retry-After past the limit, per client, until the next minute', async () => {
    let now = 120_000;
    let client = 'a';
    const app = serve({
      server: { rateLimitPerMinute: 2 },
      now: () => now,
      clientKey: () => client,
    });
    expect((await app.request('/agents')).status).toBe(200);
    expect((await app.request('/agents')).status).toBe(200);
    now += 15_000;
    const limited = await app.request('/agents');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect((await app.request('/healthz')).status).toBe(200);
    client = 'b';
    expect((await app.request('/agents')).status).toBe(200);
    client = 'a';
    now += 45_000;
    expect((await app.request('/agents')).status).toBe(200);
  });

  it('is off when the limit is 0', async () => {
    const app = serve({ server: { rateLimitPerMinute: 0 } });
    for (let i = 0; i < 5; i += 1) expect((await app.request('/agents')).status).toBe(200);
  });
});

describe('request logs', () => {
  it('logs one line per request with its id, status and path', async () => {
    const lines: string[] = [];
    const app = serve({
      logger: createLogger({ level: 'info', write: (line) => lines.push(line) }),
    });
    await app.request('/nope', { headers: { 'x-request-id': 'trace-42' } });
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        event: 'request',
        request_id: 'trace-42',
        path: '/nope',
        status: 404,
      }),
    );
  });
});
