import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { suiteStore, testServer } from '../test/test-server.js';
import { mcpToolCall } from '../test/mcp-http-call.js';

const store = suiteStore();
const serve = (apiKey?: string, on: Store = store()) =>
  testServer(on, apiKey ? { server: { apiKey } } : {});

const as = (key: string | undefined, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: {
    'content-type': 'application/json',
    ...(key ? { authorization: `Bearer ${key}` } : {}),
  },
});

const complete = async (app: ReturnType<typeof serve>, user: string, key?: string) => {
  const res = await app.request(
    '/v1/chat/completions',
    as(key, {
      method: 'POST',
      body: JSON.stringify({
        model: 'cohort',
        user,
        messages: [{ role: 'user', content: 'What is a topic?' }],
      }),
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { cohort: { session_id: string } }).cohort.session_id;
};

/** The id the old code derived from the user name alone: anyone could compute it. */
const guessable = (name: string) => {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

describe('sessions that cannot be guessed', () => {
  it('keys /v1 user sessions with the store secret: the same user continues, nobody can compute the id', async () => {
    const app = serve();
    const first = await complete(app, 'alice@example.com');
    expect(await complete(app, 'alice@example.com')).toBe(first);
    expect(first).not.toBe(guessable('user:alice@example.com'));
    expect(
      (await app.request(`/sessions/${guessable('user:alice@example.com')}/messages`)).status,
    ).toBe(404);
    expect(
      ((await (await app.request(`/sessions/${first}/messages`)).json()) as { total: number })
        .total,
    ).toBe(4);

    const other = await createStore(await openPgliteDb('memory://'));
    try {
      expect(await complete(serve(undefined, other), 'alice@example.com')).not.toBe(first);
    } finally {
      await other.close();
    }
  });

  it('keeps a session to the API key that created it: another key can neither read nor delete it', async () => {
    const app = serve('key-a, key-b');
    const sessionId = randomUUID();
    const chat = await app.request(
      '/chat',
      as('key-a', {
        method: 'POST',
        body: JSON.stringify({ query: 'What is a topic?', session_id: sessionId }),
      }),
    );
    expect(chat.status).toBe(200);
    expect((await app.request(`/sessions/${sessionId}/messages`, as('key-b'))).status).toBe(404);
    expect(
      (await app.request(`/sessions/${sessionId}`, as('key-b', { method: 'DELETE' }))).status,
    ).toBe(404);
    const intrude = await app.request(
      '/chat',
      as('key-b', {
        method: 'POST',
        body: JSON.stringify({ query: 'What is a topic?', session_id: sessionId }),
      }),
    );
    expect(intrude.status).toBe(404);
    const own = await app.request(`/sessions/${sessionId}/messages`, as('key-a'));
    expect(((await own.json()) as { total: number }).total).toBe(2);
    // The same user name under two keys is two sessions.
    expect(await complete(app, 'bob', 'key-a')).not.toBe(await complete(app, 'bob', 'key-b'));
    expect(
      (await app.request(`/sessions/${sessionId}`, as('key-a', { method: 'DELETE' }))).status,
    ).toBe(200);
  });

  it('keeps the same rule over /mcp: another key cannot ask in a session, and MCP sessions have an owner', async () => {
    const app = serve('key-a, key-b');
    const call = (key: string, name: string, args: Record<string, unknown>) =>
      mcpToolCall(app, key, name, args);
    const total = async (key: string, sessionId: string) => {
      const res = await app.request(`/sessions/${sessionId}/messages`, as(key));
      return res.status === 200 ? ((await res.json()) as { total: number }).total : res.status;
    };

    const owned = randomUUID();
    const chat = await app.request(
      '/chat',
      as('key-a', {
        method: 'POST',
        body: JSON.stringify({ query: 'What is a topic?', session_id: owned }),
      }),
    );
    expect(chat.status).toBe(200);
    for (const tool of ['ask', 'ask_glossary']) {
      const intrude = await call('key-b', tool, { query: 'What is a topic?', session_id: owned });
      expect(intrude.isError).toBe(true);
      expect(intrude.content[0]?.text).toMatch(`Session "${owned}" has no messages`);
    }
    expect(await total('key-a', owned)).toBe(2);

    // A session started over MCP belongs to the key that started it.
    const started = randomUUID();
    expect(
      (await call('key-b', 'ask', { query: 'What is a topic?', session_id: started })).isError,
    ).toBeFalsy();
    expect(await total('key-b', started)).toBe(2);
    expect(await total('key-a', started)).toBe(404);
    expect(
      (await call('key-b', 'ask_glossary', { query: 'And a node?', session_id: started })).isError,
    ).toBeFalsy();
    expect(await total('key-b', started)).toBe(4);
  });
});
