import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../telemetry/index.js';
import { REQUEST_ID_HEADER, requestContext } from './request-context.js';
import type { ServerEnv } from './server-env.js';

function app() {
  const served = new Hono<ServerEnv>();
  served.use(requestContext(silentLogger));
  served.get('/json', (c) => c.json({ id: c.get('requestId') }));
  served.get('/raw', () => new Response('streamed', { headers: { 'content-type': 'text/plain' } }));
  served.get('/fails', () => {
    throw new Error('boom');
  });
  served.onError((_, c) => c.json({ error: 'failed' }, 500));
  return served;
}

describe('requestContext', () => {
  it.each(['/json', '/raw', '/fails', '/missing'])(
    'returns the request id on %s, whoever built the response',
    async (path) => {
      const response = await app().request(path, { headers: { [REQUEST_ID_HEADER]: 'trace-7' } });
      expect(response.headers.get(REQUEST_ID_HEADER)).toBe('trace-7');
    },
  );

  it('hands the handler the id it returns', async () => {
    const response = await app().request('/json');
    const id = response.headers.get(REQUEST_ID_HEADER);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({ id });
  });
});
