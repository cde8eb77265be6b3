import type { HttpBindings } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Db, type Store } from '../store/index.js';
import { createTestAssistant, switchableDb } from '../test/test-assistant.js';
import { buildServer, createServer } from './create-server.js';
import { createServedAppHarness, seenByClient } from '../test/served-app-harness.js';

let db: Db & { down: boolean };
let store: Store;

beforeAll(async () => {
  db = switchableDb(await openPgliteDb('memory://'));
  store = await createStore(db);
});
afterAll(async () => {
  await closeAll();
  await store.close();
});

const served = () => ({
  assistant: createTestAssistant(store),
  store,
  modeDescription: 'extractive (test)',
});

const { options, serve, logged, clearLogged, closeAll } = createServedAppHarness(served);

const seen = (response: Response) => seenByClient(response, 'json');

describe('GET /healthz served over HTTP', () => {
  it("answers with the app's own response: status, JSON body, content type, request id", async () => {
    const url = await serve();
    const app = createServer(served(), options());
    for (const path of ['/healthz', '/healthz?probe=1']) {
      const headers = { 'x-request-id': 'probe-7' };
      // Twice: the first probe waits for a ping, later ones answer from the health record.
      for (const round of [1, 2]) {
        expect(await seen(await fetch(url + path, { headers })), `${path} ${round}`).toEqual(
          await seen(await app.request(path, { headers })),
        );
      }
    }
    const fresh = await seen(await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'a b' } }));
    expect(fresh.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh.body).toMatchObject({ status: 'ok', store: { reachable: true }, agents: 3 });
  });

  it('logs the same request line as every other request', async () => {
    const url = await serve();
    await (await fetch(`${url}/healthz`)).arrayBuffer();
    clearLogged();
    await (await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'probe-8' } })).arrayBuffer();
    await (await fetch(`${url}/agents`, { headers: { 'x-request-id': 'agents-8' } })).arrayBuffer();
    const lines = logged.filter((line) => line.event === 'request');
    expect(lines).toEqual([
      expect.objectContaining({
        request_id: 'probe-8',
        method: 'GET',
        path: '/healthz',
        status: 200,
        ms: expect.any(Number),
      }),
      expect.objectContaining({ request_id: 'agents-8', method: 'GET', path: '/agents' }),
    ]);
  });

  it('says 503 while the store is down, and 200 once it is back', async () => {
    const url = await serve();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    db.down = true;
    try {
      // A request that meets the store down flips the health record for the next probe.
      expect(
        (await fetch(`${url}/sessions/0b9e4c8a-7d1f-4a53-9a47-2f6c1d2e3f40/messages`)).status,
      ).toBe(503);
      const down = await seen(await fetch(`${url}/healthz`));
      expect(down).toMatchObject({ status: 503, body: { status: 'unavailable' } });
    } finally {
      db.down = false;
    }
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('keeps the CORS headers on the probe when CORS is on', async () => {
    const url = await serve({ server: { corsOrigins: ['https://app.example'] } });
    for (const round of [1, 2]) {
      const response = await fetch(`${url}/healthz`, {
        headers: { origin: 'https://app.example' },
      });
      expect(response.status, `round ${round}`).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    }
  });
});

describe('the fetch startServer serves with', () => {
  /** What @hono/node-server hands `fetch`: the Node request and response (here, their stand-ins). */
  const nodeEnv = (headers: Record<string, string> = {}) =>
    ({
      incoming: { headers },
      outgoing: { setHeader: () => undefined },
    }) as unknown as HttpBindings;

  it('answers a probe of a known-good store at once, not through a promise', async () => {
    const { app, fetch } = buildServer(served(), options());
    // Through the app the chain is asynchronous: @hono/node-server then leaves its fast path.
    const chained = app.fetch(new Request('http://127.0.0.1/healthz'), nodeEnv());
    expect(chained).toBeInstanceOf(Promise);
    expect((await chained).status).toBe(200);
    const answer = fetch(
      new Request('http://127.0.0.1/healthz'),
      nodeEnv({ 'x-request-id': 'p-1' }),
    );
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.headers.get('x-request-id')).toBe('p-1');
    expect(await seen(response)).toEqual(
      await seen(await app.request('/healthz', { headers: { 'x-request-id': 'p-1' } })),
    );
  });

  it('leaves every other request to the app', async () => {
    const { fetch } = buildServer(served(), options());
    for (const request of [
      new Request('http://127.0.0.1/agents'),
      new Request('http://127.0.0.1/healthz/'),
      new Request('http://127.0.0.1/healthz', { method: 'HEAD' }),
      new Request('http://127.0.0.1/healthz', { method: 'POST' }),
    ]) {
      const answer = fetch(request, nodeEnv());
      expect(answer, `${request.method} ${request.url}`).toBeInstanceOf(Promise);
      await answer;
    }
  });
});
