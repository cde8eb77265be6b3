import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createTestAssistant, testWebAssets } from '../test/test-assistant.js';
import { clientErrorAnswer } from './client-error.js';
import { startServer, type RunningServer } from './start-server.js';

// Requests Node's HTTP parser (or the adapter, before the app) refuses, sent on raw sockets as a
// broken client sends them: each must get the API's JSON error shape, not a bare status line.

let store: Store;
let running: RunningServer;

beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
  running = await startServer(
    { assistant: createTestAssistant(store), store, modeDescription: 'extractive (test)' },
    {
      server: { port: 0, host: '127.0.0.1' },
      webAssets: testWebAssets,
      handleSignals: false,
      requestTimeoutMs: 1_000,
      close: () => store.close(),
    },
  );
});
afterAll(() => running.close());

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  afterMs: number;
}

/** Sends `request` on a raw socket and reads everything the server writes until it closes. */
function sendRaw(request: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(running.port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (data) => chunks.push(data));
    // The server may close while the client is still writing (a huge request line).
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        body: text.slice(split + 4),
        afterMs: Date.now() - started,
      });
    });
  });
}

/** Checks a reply is the API's error: JSON of `{ error: { code, message, field } }`, connection closed. */
function expectApiError(reply: RawReply, status: number, code: string, message: RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toBe('application/json');
  expect(reply.headers.connection).toBe('close');
  expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
  const body = JSON.parse(reply.body) as { error: { code: string; message: string } };
  expect(body.error).toMatchObject({ code, message: expect.stringMatching(message) });
}

const post = 'POST /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n';

describe('a request Node refuses before the app sees it', () => {
  it('answers a negative Content-Length with a JSON 400', async () => {
    const reply = await sendRaw(`${post}Content-Length: -1\r\n\r\n{}`);
    expectApiError(reply, 400, 'bad_request', /Content-Length header is not a valid length/);
  });

  it('names the framing headers a request gives twice or together', async () => {
    // Node's parser reports a Content-Length given twice, and Content-Length beside
    // Transfer-Encoding, under codes whose messages said something else ("both Content-Length and
    // Transfer-Encoding" for two Content-Lengths; "not a valid length" for a valid one).
    const twice = await sendRaw(`${post}Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}`);
    expectApiError(twice, 400, 'bad_request', /Content-Length more than once/);
    for (const headers of [
      'Content-Length: 2\r\nTransfer-Encoding: chunked',
      'Transfer-Encoding: chunked\r\nContent-Length: 2',
    ]) {
      const both = await sendRaw(`${post}${headers}\r\n\r\n2\r\n{}\r\n0\r\n\r\n`);
      expectApiError(both, 400, 'bad_request', /both Content-Length and Transfer-Encoding/);
    }
    const gzip = await sendRaw(`${post}Transfer-Encoding: gzip\r\n\r\n{}`);
    expectApiError(gzip, 400, 'bad_request', /Transfer-Encoding "gzip".*reads only "chunked"/);
  });

  it('answers a request with two Host headers with a JSON 400 naming it', async () => {
    // RFC 9112 § 3.2: a request with more than one Host is refused; Node kept the first, and the
    // Host check read only that one.
    const reply = await sendRaw(
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n',
    );
    expectApiError(reply, 400, 'bad_request', /more than one Host header/);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { field: 'host' } });
  });

  it('answers a request with two Content-Type headers with a JSON 400 naming it, on every path', async () => {
    // Node's headers kept the first and the adapter joined them: POST /route with JSON first was
    // answered 200 on the fast path, POST /chat with the same lines 415, even with both JSON.
    const body = '{"query":"What is a ROS 2 topic?"}';
    const twice = (path: string, first: string, second: string) =>
      sendRaw(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${first}\r\nContent-Type: ${second}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
    for (const reply of [
      await twice('/route', 'application/json', 'text/plain'),
      await twice('/route', 'text/plain', 'application/json'),
      await twice('/chat', 'application/json', 'application/json'),
    ]) {
      expectApiError(reply, 400, 'bad_request', /more than one Content-Type header/);
      expect(JSON.parse(reply.body)).toMatchObject({ error: { field: 'content-type' } });
    }
  });

  it('checks the host an absolute-form target names, as RFC 9112 has it used instead of Host', async () => {
    // The guard read Host alone: `GET http://other.host/healthz` with `Host: 127.0.0.1` was
    // answered, though the adapter's URL (and the app's) named other.host.
    const other = await sendRaw(
      'GET http://other.host/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(other.status).toBe(403);
    expect(JSON.parse(other.body)).toMatchObject({
      error: { code: 'host_not_allowed', message: expect.stringContaining('"other.host"') },
    });
    const own = await sendRaw(
      `GET http://127.0.0.1:${running.port}/healthz HTTP/1.1\r\nHost: 127.0.0.1:${running.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(own.status).toBe(200);
  });

  it('answers a body sent with a transfer coding besides chunked with a JSON 400 naming it', async () => {
    // Node undoes only the chunking: the app read the compressed bytes as the JSON body.
    const body = '{"query":"What is a topic?"}';
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    for (const codings of [
      'Transfer-Encoding: gzip, chunked',
      'Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked',
    ]) {
      const reply = await sendRaw(
        `POST /route HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${codings}\r\n\r\n${chunked}`,
      );
      expect(reply.status).toBe(400);
      expect(reply.headers.connection).toBe('close');
      expect(JSON.parse(reply.body)).toMatchObject({
        error: { code: 'bad_request', message: expect.stringContaining('"gzip, chunked"') },
      });
    }
    const plain = await sendRaw(
      `POST /route HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n${chunked}`,
    );
    expect(plain.status).toBe(200);
  });

  it('answers a chunk size that is not hexadecimal with a JSON 400', async () => {
    const reply = await sendRaw(`${post}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`);
    expectApiError(reply, 400, 'bad_request', /chunk size/);
  });

  it('answers a 100,000-character path with a JSON 431', async () => {
    const reply = await sendRaw(`GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expectApiError(reply, 431, 'headers_too_large', /larger than the server takes/);
  });

  it('answers an HTTP/1.1 request without Host with a JSON 400 naming it', async () => {
    const reply = await sendRaw('GET /healthz HTTP/1.1\r\n\r\n');
    expectApiError(reply, 400, 'bad_request', /no Host header/);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { field: 'host' } });
    // HTTP/1.0 may leave Host out.
    expect((await sendRaw('GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('answers a request the adapter cannot turn into a URL with a JSON 400', async () => {
    const reply = await sendRaw('GET /healthz HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({
      error: { code: 'bad_request', message: expect.stringMatching(/cannot be read/) },
    });
  });

  it('names both bounds in a 408 when the headers are due sooner than the whole request', () => {
    // Node reports both as ERR_HTTP_REQUEST_TIMEOUT: a client that sent nothing was cut at 20 s
    // and told "within 30 s".
    const timeout = { name: 'Error', message: 'Request timeout', code: 'ERR_HTTP_REQUEST_TIMEOUT' };
    expect(
      clientErrorAnswer(timeout, { requestTimeoutMs: 30_000, headersTimeoutMs: 20_000 }).message,
    ).toMatch(/headers are due within 20 s, the whole request within 30 s/);
    expect(
      clientErrorAnswer(timeout, { requestTimeoutMs: 1_000, headersTimeoutMs: 1_000 }).message,
    ).toMatch(/^The whole request did not arrive within 1 s/);
  });

  it('answers a body shorter than its Content-Length with a JSON 408 after the timeout', async () => {
    const reply = await sendRaw(`${post}Content-Length: 100\r\n\r\n{"query": "What is`);
    expectApiError(reply, 408, 'request_timeout', /did not arrive within 1 s/);
    expect(reply.afterMs).toBeLessThan(5_000);
    expect(running.openRequests()).toBe(0);
  }, 15_000);

  it('answers an Expect header other than 100-continue with a JSON 417 naming it, and closes', async () => {
    const reply = await sendRaw(
      'POST /route HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: 13\r\n\r\n{"query":"x"}',
    );
    expectApiError(reply, 417, 'expectation_failed', /cannot meet the Expect header "200-ok"/);
    expect(reply.headers.connection).toBe('close');
  });

  it('answers CONNECT (a proxy tunnel) with a JSON 405 naming the methods, and closes', async () => {
    const reply = await sendRaw('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n');
    expectApiError(reply, 405, 'method_not_allowed', /does not take CONNECT: it is an HTTP API/);
    expect(reply.headers.allow).toBe('GET, POST, DELETE, OPTIONS');
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  });

  it('answers garbage sent after a finished answer on a kept-alive connection, and serves others', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(running.port, '127.0.0.1', () =>
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (data) => {
        // The first answer is in: the connection is idle and kept alive.
        if (text === '') setTimeout(() => socket.write('NOT HTTP AT ALL\r\n\r\n'), 50);
        text += data.toString();
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const second = reply.slice(reply.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(second).toMatch(/\r\nConnection: close\r\n/);
    expect(second).toMatch(/"code":"bad_request"/);
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  });
});

describe('garbage sent right behind a request (pipelined)', () => {
  it.each(['GET', 'HEAD'])(
    'answers the %s request first, then the garbage with a JSON 400',
    async (method) => {
      // Node's client sends a HEAD's body without Content-Length: the server read `{}` as the
      // next request and wrote its 400 before the HEAD's answer, which the client then took for
      // the HEAD's ("Parse Error: Data after `Connection: close`" in scripts/fuzz-http.ts).
      const reply = await sendRaw(`${method} /agents HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n{}`);
      expect(reply.status).toBe(200);
      const second = reply.body.slice(reply.body.indexOf('HTTP/1.1'));
      expect(second).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(second).toMatch(/"code":"bad_request"/);
    },
  );
});

describe('a client that stalls mid-request', () => {
  it('gets 408 when the headers never end', async () => {
    const reply = await sendRaw('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(reply.status).toBe(408);
    expect(reply.afterMs).toBeLessThan(5_000);
  }, 15_000);

  it('still serves a normal request on the same server', async () => {
    const res = await fetch(`${running.url}/healthz`);
    expect(res.status).toBe(200);
  });
});
