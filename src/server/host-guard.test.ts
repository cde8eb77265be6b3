import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAssistant, testWebAssets } from '../test/test-assistant.js';
import type { ServerOptions } from './create-server.js';
import { isLoopbackHost, requestedHost, requestGuard } from './host-guard.js';
import { startServer, type RunningServer } from './start-server.js';
import { errorOf } from '../test/api-error-of.js';
import { suiteStore, testServer } from '../test/test-server.js';

// DNS rebinding: a web page at http://evil.example:8787 whose name then resolves to 127.0.0.1
// sends its requests to the local server with `Host: evil.example:8787` (and its own Origin).
// A server on a loopback address answers only to loopback names; a page of another origin may
// not change anything, nor speak MCP.

const store = suiteStore();
const serve = (options: ServerOptions = {}) => testServer(store(), options);

const MCP_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'route', arguments: { query: 'What is a topic?' } },
});

const call = (
  app: ReturnType<typeof serve>,
  method: string,
  path: string,
  headers: Record<string, string>,
) =>
  app.request(path, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    ...(method === 'POST'
      ? { body: path === '/mcp' ? MCP_CALL : JSON.stringify({ query: 'What is a topic?' }) }
      : {}),
  });

describe('the Host check of a server on a loopback address', () => {
  it('refuses a Host that is not a loopback name, on every route, saying how to allow it', async () => {
    const app = serve();
    for (const [method, path] of [
      ['POST', '/mcp'],
      ['POST', '/code'],
      ['POST', '/chat'],
      ['GET', '/healthz'],
      ['GET', '/'],
    ] as const) {
      const refused = await call(app, method, path, { host: 'evil.example:8787' });
      expect(await errorOf(refused), `${method} ${path}`).toMatchObject({
        status: 403,
        code: 'host_not_allowed',
        field: 'host',
        message: expect.stringMatching(
          /not to the Host "evil\.example:8787".*server\.allowedHosts.*COHORT_ALLOWED_HOSTS/,
        ),
      });
      expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers to localhost, 127.0.0.1 and [::1], with or without a port', async () => {
    const app = serve();
    for (const host of ['localhost', 'localhost:8787', '127.0.0.1:8787', '[::1]:8787', 'LOCALHOST'])
      expect((await call(app, 'POST', '/route', { host })).status, host).toBe(200);
    // Without a Host header (app.request), the URL's host: localhost.
    expect((await serve().request('/healthz')).status).toBe(200);
  });

  it('answers to the names of server.allowedHosts, or any with "*"', async () => {
    const app = serve({ server: { allowedHosts: ['cohort.lan'] } });
    expect((await call(app, 'POST', '/route', { host: 'cohort.lan:8787' })).status).toBe(200);
    expect((await call(app, 'POST', '/route', { host: 'evil.example' })).status).toBe(403);
    const any = serve({ server: { allowedHosts: ['*'] } });
    expect((await call(any, 'POST', '/route', { host: 'evil.example' })).status).toBe(200);
  });

  it('does not check Host on a server listening on every address (use an API key there)', async () => {
    const app = serve({ server: { host: '0.0.0.0' } });
    expect((await call(app, 'POST', '/route', { host: 'cohort.example.org' })).status).toBe(200);
  });

  it('judges each Host on its own when Hosts alternate (the last one is kept)', () => {
    const guard = requestGuard({ listenHost: '127.0.0.1', allowedHosts: [], corsOrigins: [] });
    const source = (host: string) => ({ method: 'POST', path: '/route', host, origin: undefined });
    for (const host of ['127.0.0.1:8787', 'evil.example:8787', 'evil.example:8787', 'localhost'])
      expect(guard(source(host))?.code, host).toBe(
        host.startsWith('evil') ? 'host_not_allowed' : undefined,
      );
  });

  it('knows the loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.org', '128.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('requestedHost', () => {
  it('takes the host of an absolute-form target over Host, and Host otherwise (RFC 9112 § 3.2.2)', () => {
    const url = 'http://other.host/healthz';
    expect(requestedHost(url, 'localhost', url)).toBe('other.host');
    expect(requestedHost('https://Other.Host:8443/x', 'localhost', url)).toBe('other.host:8443');
    expect(requestedHost('/healthz', 'localhost:8787', 'http://localhost:8787/healthz')).toBe(
      'localhost:8787',
    );
    // HTTP/1.0 without Host: the URL the adapter built.
    expect(requestedHost('/healthz', undefined, 'http://127.0.0.1:8787/healthz')).toBe(
      '127.0.0.1:8787',
    );
    expect(requestedHost(undefined, 'localhost', 'http://localhost/')).toBe('localhost');
  });
});

describe('the Origin check', () => {
  it('refuses a foreign Origin on a request that changes something, and on any /mcp request', async () => {
    const app = serve();
    for (const [method, path] of [
      ['POST', '/mcp'],
      ['POST', '/code'],
      ['POST', '/chat'],
      ['DELETE', '/sessions/0b9e4c8a-7d1f-4a53-9a47-2f6c1d2e3f40'],
      ['GET', '/mcp'],
    ] as const) {
      const refused = await call(app, method, path, {
        host: '127.0.0.1:8787',
        origin: 'http://evil.example',
      });
      expect(await errorOf(refused), `${method} ${path}`).toMatchObject({
        status: 403,
        code: 'origin_not_allowed',
        field: 'origin',
        message: expect.stringMatching(
          /"http:\/\/evil\.example" may not call .*server\.corsOrigins.*COHORT_CORS_ORIGINS/,
        ),
      });
    }
    // A page on another port of this machine is another origin too; so is a sandboxed one.
    for (const origin of ['http://127.0.0.1:3000', 'null', 'not an origin'])
      expect((await call(app, 'POST', '/route', { host: '127.0.0.1:8787', origin })).status).toBe(
        403,
      );
  });

  it("takes the server's own origin, a configured CORS origin, and no Origin at all", async () => {
    const app = serve({ server: { corsOrigins: ['https://book.example'] } });
    const own = { host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' };
    expect((await call(app, 'POST', '/route', own)).status).toBe(200);
    expect((await call(app, 'POST', '/mcp', own)).status).toBe(200);
    const cors = { host: '127.0.0.1:8787', origin: 'https://book.example' };
    expect((await call(app, 'POST', '/route', cors)).status).toBe(200);
    expect((await call(app, 'POST', '/route', { host: '127.0.0.1:8787' })).status).toBe(200);
    // Reading is left to CORS: the browser hides the answer from a foreign page.
    const read = await call(app, 'GET', '/agents', {
      host: '127.0.0.1:8787',
      origin: 'http://evil.example',
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    // A default port is the same origin with or without it.
    const plain = serve({ server: { host: '0.0.0.0' } });
    expect(
      (await call(plain, 'POST', '/route', { host: 'book.example', origin: 'http://book.example' }))
        .status,
    ).toBe(200);
  });
});

describe('the guard on a listening server, fast paths included', () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(
      {
        assistant: createTestAssistant(store()),
        store: store(),
        modeDescription: 'extractive (test)',
      },
      { server: { port: 0, host: '127.0.0.1' }, webAssets: testWebAssets, handleSignals: false },
    );
  });
  afterAll(() => running.close());

  /** A request with the headers as given (fetch would not send another Host). */
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: running.port, method, path, headers },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('refuses a rebound Host on /healthz and /route (the fast paths) and on /mcp', async () => {
    const evil = { host: `evil.example:${running.port}` };
    const json = { 'content-type': 'application/json' };
    const probe = await send('GET', '/healthz', evil);
    expect(probe.status).toBe(403);
    expect(JSON.parse(probe.body)).toMatchObject({ error: { code: 'host_not_allowed' } });
    const route = JSON.stringify({ query: 'What is a topic?' });
    expect((await send('POST', '/route', { ...evil, ...json }, route)).status).toBe(403);
    const foreign = { host: `127.0.0.1:${running.port}`, origin: 'http://evil.example' };
    expect((await send('POST', '/route', { ...foreign, ...json }, route)).status).toBe(403);
    const mcp = {
      ...evil,
      ...json,
      accept: 'application/json, text/event-stream',
      origin: `http://evil.example:${running.port}`,
    };
    expect((await send('POST', '/mcp', mcp, MCP_CALL)).status).toBe(403);
    // The same requests by the server's own names are answered.
    const own = { host: `localhost:${running.port}` };
    expect((await send('GET', '/healthz', own)).status).toBe(200);
    expect((await send('POST', '/route', { ...own, ...json }, route)).status).toBe(200);
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  });
});
