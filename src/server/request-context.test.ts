import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../telemetry/index.js';
import {
  logRequest,
  logRequestWithId,
  REQUEST_ID_HEADER,
  requestContext,
} from './request-context.js';
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

  it('is on every response served over HTTP by @hono/node-server, through the Node response', async () => {
    const served = app();
    // What the handler finds on the Node response: the id is there before it runs.
    served.get('/early', (c) => c.json({ early: c.env?.outgoing?.getHeader(REQUEST_ID_HEADER) }));
    const server = serve({ fetch: served.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((listening) => server.once('listening', listening));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/json', '/raw', '/fails', '/missing']) {
        const response = await fetch(base + path, { headers: { [REQUEST_ID_HEADER]: 'trace-9' } });
        await response.arrayBuffer();
        expect(response.headers.get(REQUEST_ID_HEADER), path).toBe('trace-9');
      }
      const fresh = await fetch(`${base}/json`);
      const id = fresh.headers.get(REQUEST_ID_HEADER);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await fresh.json()).toEqual({ id });
      const early = await fetch(`${base}/early`, { headers: { [REQUEST_ID_HEADER]: 'trace-10' } });
      expect(await early.json()).toEqual({ early: 'trace-10' });
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });
});

describe('logRequestWithId', () => {
  it("writes the line logRequest writes on the request's child logger, key for key", () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      write: (line) => lines.push(line.replace(/"time":"[^"]*"/, '"time":""')),
      fields: { service: 'cohort', path: '/ignored' },
    });
    const line = { method: 'POST', path: '/route', status: 200, ms: 3 };
    logRequest(logger.child({ request_id: 'trace-7' }), line);
    logRequestWithId(logger, { request_id: 'trace-7', ...line });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(lines[0]);
  });
});
