import { createServer as createHttpServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createExtractiveRunner } from '../agents/index.js';
import { createAssistant, createContextSkill, type Assistant } from '../assistant/index.js';
import { createRagSkill } from '../agents/index.js';
import { createBookRegistry } from '../routing/book-registry.js';
import type { Router } from '../routing/router.js';
import { routeResponse, toWire } from '../schema/index.js';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { sampleBookRouter } from '../test/sample-book-router.js';
import { buildServer, createServer } from './create-server.js';
import { createServedAppHarness, seenByClient } from '../test/served-app-harness.js';
import { plainRouteQuery, routeAnswerText } from './fast-route.js';

// The fast path of `POST /route` must answer exactly as the app does: every body below is sent
// over HTTP to a started server (fast path on) and through `app.request` (the app alone), and
// status, content type, request id and body text are compared.

let store: Store;
let router: Router;
let assistant: Assistant;

beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
  router = await sampleBookRouter();
  assistant = createAssistant({
    registry: createBookRegistry(),
    router,
    rag: createRagSkill({ retrieve: async () => [] }),
    context: createContextSkill(store.sessions),
    runner: createExtractiveRunner(),
  });
}, 120_000);
afterAll(async () => {
  await closeAll();
  await store.close();
});

const served = () => ({ assistant, store, modeDescription: 'extractive (test)' });

const { options, serve, logged, clearLogged, closeAll } = createServedAppHarness(served);

const seen = (response: Response) => seenByClient(response);

const QUESTIONS = [
  'What is a topic?',
  '   Capstone milestones  ',
  'How does VSLAM work, and what GPU do I need to run it?',
  'waht does SLAM stnad for',
  "What's the price of Ethereum right now?",
  'Sorry if this is basic. What is a launch file?',
];

const json = 'application/json';
/** Bodies and content types: the plain case and every way a body can be wrong. */
const CASES: Array<[label: string, body: string, type: string]> = [
  ...QUESTIONS.map((query): [string, string, string] => [query, JSON.stringify({ query }), json]),
  ['vendor JSON type', JSON.stringify({ query: 'What is a topic?' }), 'application/vnd.x+json'],
  ['charset', JSON.stringify({ query: 'What is a topic?' }), 'application/json; charset=utf-8'],
  ['latin-1 charset', JSON.stringify({ query: 'What is a topic?' }), `${json}; charset=latin1`],
  ['quoted UTF8 charset', JSON.stringify({ query: 'What is a topic?' }), `${json}; charset="UTF8"`],
  ['byte order mark', `\uFEFF${JSON.stringify({ query: 'What is a topic?' })}`, json],
  ['spaces around JSON', ` ${JSON.stringify({ query: 'What is a topic?' })}\n`, json],
  ['empty question', '{"query":""}', json],
  ['blank question', '{"query":"   "}', json],
  ['too long', JSON.stringify({ query: 'a'.repeat(2001) }), json],
  ['long enough once trimmed', JSON.stringify({ query: ` ${'a'.repeat(2000)} ` }), json],
  ['NUL', '{"query":"a\\u0000b"}', json],
  ['unpaired surrogate', '{"query":"a\\ud800b"}', json],
  ['number', '{"query":42}', json],
  ['null question', '{"query":null}', json],
  ['no question', '{}', json],
  ['extra field', '{"query":"What is a topic?","agent":"glossary"}', json],
  ['misspelt field', '{"qeury":"What is a topic?"}', json],
  ['camelCase key', '{"Query":"What is a topic?"}', json],
  ['twice the key', '{"query":"What is a topic?","query":"Capstone milestones"}', json],
  ['prototype key', '{"__proto__":{"query":"x"},"query":"What is a topic?"}', json],
  ['array', '[{"query":"What is a topic?"}]', json],
  ['null', 'null', json],
  ['string', '"What is a topic?"', json],
  ['not JSON', 'What is a topic?', json],
  ['empty body', '', json],
  ['text type', JSON.stringify({ query: 'What is a topic?' }), 'text/plain'],
  ['nested deep', `{"query":"x","a":${'['.repeat(70)}${']'.repeat(70)}}`, json],
];

describe('POST /route on the fast path', () => {
  it('answers every body as the app does: status, content type, request id, body text', async () => {
    const url = await serve();
    const app = createServer(served(), options());
    for (const [label, body, type] of CASES) {
      const init = () => ({
        method: 'POST',
        headers: { 'content-type': type, 'x-request-id': 'route-1' },
        body,
      });
      expect(await seen(await fetch(`${url}/route`, init())), label).toEqual(
        await seen(await app.request('/route', init())),
      );
    }
    // Bytes that are not UTF-8 are refused as the app refuses them, not read as U+FFFD.
    const notUtf8 = await seen(
      await fetch(`${url}/route`, {
        method: 'POST',
        headers: { 'content-type': json },
        body: Buffer.concat([
          Buffer.from('{"query":"'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('"}'),
        ]),
      }),
    );
    expect(notUtf8.status).toBe(400);
    expect(JSON.parse(notUtf8.body)).toMatchObject({ error: { code: 'malformed_json' } });
    // Without a content type, and with a query string on the path (the app names the parameter).
    const bare = { method: 'POST', body: '{"query":"What is a topic?"}' };
    expect(await seen(await fetch(`${url}/route`, bare))).toMatchObject({ status: 415 });
    const withQuery = {
      method: 'POST',
      headers: { 'content-type': json },
      body: '{"query":"What is a topic?"}',
    };
    const named = { ...withQuery, headers: { ...withQuery.headers, 'x-request-id': 'route-q' } };
    const queried = await seen(await fetch(`${url}/route?x=1`, named));
    expect(queried).toEqual(await seen(await app.request('/route?x=1', named)));
    expect(queried.status).toBe(400);
    expect(JSON.parse(queried.body)).toMatchObject({ error: { code: 'bad_request', field: 'x' } });
    const plain = await seen(await fetch(`${url}/route`, withQuery));
    expect(plain.status).toBe(200);
    expect(plain.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(plain.body)).toEqual(toWire(routeResponse(router.route('What is a topic?'))));
  });

  it('answers questions sent at once, routed together, each with its own decision', async () => {
    const url = await serve();
    const questions = [...QUESTIONS, ...QUESTIONS.map((query) => query.toUpperCase())];
    const answers = await Promise.all(
      questions.map((query, i) =>
        fetch(`${url}/route`, {
          method: 'POST',
          headers: { 'content-type': json, 'x-request-id': `many-${i}` },
          body: JSON.stringify({ query: i === 3 ? '' : query }),
        }).then(seen),
      ),
    );
    answers.forEach((answer, i) => {
      const query = questions[i]!;
      if (i === 3) expect(answer.status, query).toBe(422);
      else
        expect(answer, query).toEqual({
          status: 200,
          type: json,
          id: `many-${i}`,
          body: routeAnswerText(router.route(query.trim())),
        });
    });
  });

  it('leaves a body over the limit, and one of unknown length, to the app', async () => {
    const url = await serve({ server: { bodyLimitBytes: 64 } });
    const small = JSON.stringify({ query: 'What is a topic?' });
    const large = JSON.stringify({ query: `What is a topic? ${'x'.repeat(64)}` });
    const post = (body: BodyInit, extra: RequestInit = {}) =>
      fetch(`${url}/route`, {
        method: 'POST',
        headers: { 'content-type': json },
        body,
        ...extra,
      });
    expect((await post(small)).status).toBe(200);
    const refused = await post(large);
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    // A streamed body has no declared length: counted as it arrives, by the app.
    const stream = (text: string) =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      });
    const chunked = { duplex: 'half' } as RequestInit;
    expect((await post(stream(small), chunked)).status).toBe(200);
    expect((await post(stream(large), chunked)).status).toBe(413);
  });

  it('logs the same request line as the app', async () => {
    const url = await serve();
    const post = (id: string) =>
      fetch(`${url}/route`, {
        method: 'POST',
        headers: { 'content-type': json, 'x-request-id': id },
        body: JSON.stringify({ query: id === 'bad-1' ? '' : 'What is a topic?' }),
      }).then((response) => response.arrayBuffer());
    clearLogged();
    await post('fast-1');
    await post('bad-1');
    expect(logged.filter((line) => line.event === 'request')).toEqual([
      expect.objectContaining({
        request_id: 'fast-1',
        method: 'POST',
        path: '/route',
        status: 200,
        ms: expect.any(Number),
      }),
      expect.objectContaining({ request_id: 'bad-1', method: 'POST', path: '/route', status: 422 }),
    ]);
  });

  it('leaves a body the client stops sending midway to the app, and serves on', async () => {
    const url = await serve();
    const { port } = new URL(url);
    clearLogged();
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((done) => socket.once('connect', done));
    socket.write(
      'POST /route HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\nX-Request-Id: gone-1\r\n\r\n{"query":"What',
    );
    await new Promise((done) => setTimeout(done, 50));
    socket.destroy();
    await vi.waitFor(() =>
      expect(logged).toContainEqual(
        expect.objectContaining({ event: 'request', request_id: 'gone-1', path: '/route' }),
      ),
    );
    // A client that went away is not a crash of the server: logged as the app logs it for every
    // other route (info), not as an internal error with a stack ("Body is unusable").
    expect(logged).toContainEqual(
      expect.objectContaining({
        event: 'client_disconnected',
        request_id: 'gone-1',
        method: 'POST',
        path: '/route',
      }),
    );
    expect(logged.filter((line) => line.level === 'error')).toEqual([]);
    const after = await fetch(`${url}/route`, {
      method: 'POST',
      headers: { 'content-type': json },
      body: '{"query":"What is a topic?"}',
    });
    expect(after.status).toBe(200);
  });

  it('is off when an API key or a rate limit guards /route', async () => {
    const url = await serve({ server: { apiKey: 'secret' } });
    const post = (headers: Record<string, string> = {}) =>
      fetch(`${url}/route`, {
        method: 'POST',
        headers: { 'content-type': json, ...headers },
        body: JSON.stringify({ query: 'What is a topic?' }),
      });
    expect((await post()).status).toBe(401);
    expect((await post({ authorization: 'Bearer secret' })).status).toBe(200);
  });
});

describe('the listener startServer serves with, on POST /route', () => {
  it('answers a plain question itself, and hands the rest to the adapter with the body read', async () => {
    const built = buildServer(served(), options());
    const adapter = getRequestListener(built.fetch);
    const handed: string[] = [];
    const server = createHttpServer(
      built.listener((incoming, outgoing) => {
        handed.push(`${incoming.method} ${incoming.url}`);
        void adapter(incoming, outgoing);
      }),
    );
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const post = (body: string) =>
      fetch(`http://127.0.0.1:${port}/route`, {
        method: 'POST',
        headers: { 'content-type': json, 'x-request-id': 'r-1' },
        body,
      }).then(seen);
    try {
      const good = await post('{"query":"What is a topic?"}');
      expect(good).toMatchObject({ status: 200, type: json, id: 'r-1' });
      expect(handed).toEqual([]);
      // Refused by the app from the bytes the fast path read: the same 422 as without it.
      expect(await post('{"query":""}')).toMatchObject({ status: 422, id: 'r-1' });
      expect(handed).toEqual(['POST /route']);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

describe('plainRouteQuery and routeAnswerText', () => {
  it('reads only the bodies the app takes as they are', () => {
    expect(plainRouteQuery('{"query":" What is a topic? "}')).toBe('What is a topic?');
    for (const body of [
      '{"query":""}',
      '{"query":1}',
      '{"query":"a","b":1}',
      '{"query":"a","query":"b"}',
      '[]',
      'x',
      '',
    ])
      expect(plainRouteQuery(body), body).toBeUndefined();
  });

  it('writes the same text as toWire(routeResponse(…))', () => {
    for (const query of [...QUESTIONS, 'How do URDF joints work, and what does revolute mean?']) {
      const route = router.route(query);
      expect(routeAnswerText(route), query).toBe(JSON.stringify(toWire(routeResponse(route))));
    }
  });
});
