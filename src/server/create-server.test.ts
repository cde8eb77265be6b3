import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Db, type Store } from '../store/index.js';
import { readSse, switchableDb } from '../test/test-assistant.js';
import { errorOf } from '../test/api-error-of.js';
import { testServer } from '../test/test-server.js';

/** The test router's decision for "What is a topic?", as /route and the stream's first event give it. */
const TOPIC_ROUTE = {
  primary_agent: 'glossary',
  secondary_agents: [],
  confidence: 0.9,
  reason: 'keyword "topic"',
  is_multi_domain: false,
  phase: 'keyword',
};

const SESSION = '0b9e4c8a-7d1f-4a53-9a47-2f6c1d2e3f40';
const OTHER_SESSION = '1c9e4c8a-7d1f-4a53-9a47-2f6c1d2e3f41';

let store: Store;
let db: Db & { down: boolean };
let app: ReturnType<typeof testServer>;

beforeAll(async () => {
  db = switchableDb(await openPgliteDb('memory://'));
  store = await createStore(db);
  app = testServer(store);
});
afterAll(() => store.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('POST /chat', () => {
  it('answers in snake_case with the agent, confidence and numbered citations', async () => {
    const response = await post('/chat', { query: 'What is a topic?', session_id: SESSION });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.agent_used).toBe('glossary');
    expect(body.routing_confidence).toBe(0.9);
    expect(body.session_id).toBe(SESSION);
    expect(body.mode).toBe('extractive');
    expect(body.answer).toContain('[1]');
    expect(body.citations).toEqual([
      expect.objectContaining({
        index: 1,
        source: 'docs/ros2/topics.md',
        relevance_score: 0.9,
        chunk_id: 'topics-1',
      }),
    ]);
  });

  it('returns the request id it was given, or a new one', async () => {
    const given = await post('/chat', { query: 'What is a topic?' }, { 'x-request-id': 'abc-123' });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const fresh = await post(
      '/chat',
      { query: 'What is a topic?' },
      { 'x-request-id': 'bad id\n' },
    );
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is 400 for a body that is not JSON, empty, or not an object', async () => {
    expect(await errorOf(await post('/chat', '{"query": '))).toMatchObject({
      status: 400,
      code: 'malformed_json',
    });
    expect(await errorOf(await post('/chat', ''))).toMatchObject({
      status: 400,
      code: 'malformed_json',
      message: expect.stringContaining('empty'),
    });
    expect(await errorOf(await post('/chat', '["query"]'))).toMatchObject({
      status: 400,
      code: 'malformed_json',
    });
  });

  it('is 415 when the body is not sent as JSON', async () => {
    const response = await app.request('/chat', {
      method: 'POST',
      body: 'query=hi',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(await errorOf(response)).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it('is 415 for a media type that only begins like JSON, and reads application/json and x+json', async () => {
    // Found by outside testing: `application/json-seq` (RFC 7464 record sequences),
    // `application/json/x` and a list `application/json, text/plain` were read as JSON (200).
    const send = (type: string) =>
      app.request('/chat', {
        method: 'POST',
        body: JSON.stringify({ query: 'What is a topic?' }),
        headers: { 'content-type': type },
      });
    for (const type of [
      'application/json-seq',
      'application/json/x',
      'application/json, text/plain',
      'application/jsonp',
    ]) {
      expect(await errorOf(await send(type)), type).toMatchObject({
        status: 415,
        code: 'unsupported_media_type',
      });
    }
    for (const type of [
      'application/json',
      'APPLICATION/JSON ; charset=utf-8',
      'application/vnd.api+json',
    ])
      expect((await send(type)).status, type).toBe(200);
  });

  it('is 415 naming the charset or the content encoding it cannot read, not 400 or a 200', async () => {
    // A UTF-16 body was read as UTF-8 ("not valid JSON"), a Latin-1 one read wrong, a gzipped
    // one read as text.
    const body = JSON.stringify({ query: 'What is a topic?' });
    const cases: [Record<string, string>, string][] = [
      [{ 'content-type': 'application/json; charset=utf-16' }, 'charset "utf-16"'],
      [{ 'content-type': 'application/json; charset=ISO-8859-1' }, 'charset "ISO-8859-1"'],
      [
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        'Content-Encoding "gzip"',
      ],
    ];
    for (const [headers, named] of cases) {
      const response = await app.request('/chat', { method: 'POST', body, headers });
      const error = await errorOf(response);
      expect(error, named).toMatchObject({ status: 415, code: 'unsupported_media_type' });
      expect(error.message).toContain(named);
    }
    for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF8"']) {
      const headers = { 'content-type': type, 'content-encoding': 'identity' };
      expect((await app.request('/chat', { method: 'POST', body, headers })).status).toBe(200);
    }
  });

  it('is 422 naming the field for valid JSON with wrong fields', async () => {
    expect(await errorOf(await post('/chat', { query: '   ' }))).toEqual({
      status: 422,
      code: 'invalid_input',
      field: 'query',
      message: expect.stringContaining('Please provide a question to ask about the book.'),
    });
    expect(await errorOf(await post('/chat', { query: 'x'.repeat(2001) }))).toMatchObject({
      status: 422,
      field: 'query',
    });
    expect(
      await errorOf(await post('/chat', { query: 'hi', session_id: 'not-a-uuid' })),
    ).toMatchObject({ status: 422, field: 'session_id' });
    expect(await errorOf(await post('/chat', {}))).toMatchObject({ status: 422, field: 'query' });
  });

  it('is 404 for an unknown agent, and saves nothing', async () => {
    expect(
      await errorOf(await post('/chat', { query: 'hi', agent: 'chef', session_id: OTHER_SESSION })),
    ).toMatchObject({
      status: 404,
      code: 'not_found',
      field: 'agent',
      message: expect.stringContaining('Registered agents: glossary, hardware, book'),
    });
    expect((await app.request(`/sessions/${OTHER_SESSION}/messages`)).status).toBe(404);
  });

  it('is 413 for a body over the limit', async () => {
    const response = await post('/chat', { query: 'x'.repeat(70 * 1024) });
    expect(await errorOf(response)).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('is 503 with the spec message when retrieval is unavailable', async () => {
    expect(await errorOf(await post('/chat', { query: 'during the outage?' }))).toEqual({
      status: 503,
      code: 'retrieval_unavailable',
      field: null,
      message: "I'm unable to search the book right now. The retrieval service is unavailable.",
    });
  });

  it('is 500 with a message that hides internals for an unexpected failure', async () => {
    const failure = await errorOf(await post('/chat', { query: 'make it explode' }));
    expect(failure).toMatchObject({ status: 500, code: 'internal' });
    expect(failure.message).not.toContain('unexpected failure inside retrieval');
  });
});

describe('POST /chat/stream', () => {
  it('streams route, deltas, citations and the final ChatResponse', async () => {
    const response = await post('/chat/stream', { query: 'What is a topic?' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(response);
    expect(events.map((e) => e.event)).toEqual([
      'route',
      ...events.slice(1, -2).map(() => 'delta'),
      'citations',
      'done',
    ]);
    expect(JSON.parse(events[0]!.data)).toEqual(TOPIC_ROUTE);
    const text = events
      .filter((e) => e.event === 'delta')
      .map((e) => (JSON.parse(e.data) as { text: string }).text)
      .join('');
    const done = JSON.parse(events.at(-1)!.data) as { answer: string; citations: unknown[] };
    expect(text).toBe(done.answer);
    expect(JSON.parse(events.at(-2)!.data)).toEqual({ citations: done.citations });
  });

  it('answers bad input with a status before any event is sent', async () => {
    expect(await errorOf(await post('/chat/stream', { query: '' }))).toMatchObject({ status: 422 });
    expect(await errorOf(await post('/chat/stream', { query: 'hi', agent: 'chef' }))).toMatchObject(
      { status: 404 },
    );
  });

  it('ends with an error event when retrieval fails mid-stream', async () => {
    const events = await readSse(await post('/chat/stream', { query: 'outage now' }));
    expect(events.at(-1)?.event).toBe('error');
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({
      error: { code: 'retrieval_unavailable' },
    });
    const failed = await readSse(await post('/chat/stream', { query: 'explode' }));
    expect(JSON.parse(failed.at(-1)!.data)).toMatchObject({ error: { code: 'internal' } });
  });
});

describe('GET /agents and POST /route', () => {
  it('lists the agents', async () => {
    const body = (await (await app.request('/agents')).json()) as {
      total: number;
      agents: { name: string; keywords: string[] }[];
    };
    expect(body.total).toBe(3);
    expect(body.agents.map((a) => a.name)).toEqual(['glossary', 'hardware', 'book']);
    expect(body.agents[0]?.keywords).toHaveLength(3);
  });

  it('routes without running an agent', async () => {
    const response = await post('/route', { query: 'What is a topic?' });
    expect(await response.json()).toEqual(TOPIC_ROUTE);
    expect(await errorOf(await post('/route', { query: '' }))).toMatchObject({
      status: 422,
      field: 'query',
    });
    expect(await errorOf(await post('/route', 'nope'))).toMatchObject({ status: 400 });
  });
});

describe('sessions', () => {
  const session = '2d9e4c8a-7d1f-4a53-9a47-2f6c1d2e3f42';

  it('returns the history oldest first, honours limit, and deletes it', async () => {
    await post('/chat', { query: 'What is a topic?', session_id: session });
    await post('/chat', { query: 'Tell me about hardware', session_id: session });
    const all = (await (await app.request(`/sessions/${session}/messages`)).json()) as {
      session_id: string;
      total: number;
      messages: { role: string; content: string; agent_name?: string; timestamp: string }[];
    };
    expect(all.session_id).toBe(session);
    expect(all.total).toBe(4);
    expect(all.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(all.messages[0]?.content).toBe('What is a topic?');
    expect(all.messages[1]?.agent_name).toBe('glossary');
    expect(Number.isNaN(Date.parse(all.messages[0]!.timestamp))).toBe(false);

    const last = (await (await app.request(`/sessions/${session}/messages?limit=1`)).json()) as {
      total: number;
    };
    expect(last.total).toBe(1);

    const deleted = await app.request(`/sessions/${session}`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ session_id: session, deleted: 4 });
    expect((await app.request(`/sessions/${session}/messages`)).status).toBe(404);
  });

  it('is 404 for an unknown session and 400 for a malformed id or limit', async () => {
    expect(await errorOf(await app.request(`/sessions/${OTHER_SESSION}/messages`))).toMatchObject({
      status: 404,
      field: 'session_id',
    });
    expect(
      await errorOf(await app.request(`/sessions/${OTHER_SESSION}`, { method: 'DELETE' })),
    ).toMatchObject({ status: 404 });
    expect(await errorOf(await app.request('/sessions/nope/messages'))).toMatchObject({
      status: 400,
      code: 'bad_request',
      field: 'session_id',
    });
    expect(await errorOf(await app.request(`/sessions/${SESSION}/messages?limit=0`))).toMatchObject(
      { status: 400, field: 'limit' },
    );
    expect(
      await errorOf(await app.request(`/sessions/${SESSION}/messages?limit=abc`)),
    ).toMatchObject({ status: 400, field: 'limit' });
    // Only plain decimal digits: what Number() also reads (hex, exponent, sign, spaces) is refused.
    for (const limit of ['0x10', '1e2', '+5', '%205', '5%20', '5.0', '1001', '', '-1']) {
      const error = await errorOf(
        await app.request(`/sessions/${SESSION}/messages?limit=${limit}`),
      );
      expect(error, limit).toMatchObject({ status: 400, code: 'bad_request', field: 'limit' });
      expect(error.message, limit).toMatch(/limit must be a whole number from 1 to 1000/);
    }
    expect(
      await errorOf(await app.request(`/sessions/${SESSION}/messages?limit=5&limit=6`)),
    ).toMatchObject({ status: 400, code: 'bad_request', field: 'limit' });
    for (const limit of ['1', '05', '1000']) {
      expect(
        (await app.request(`/sessions/${SESSION}/messages?limit=${limit}`)).status,
        limit,
      ).not.toBe(400);
    }
  });
});

describe('the OpenAI-compatible endpoint', () => {
  it('answers a completion with the citations in the text and in a field', async () => {
    const response = await post('/v1/chat/completions', {
      model: 'cohort',
      messages: [
        { role: 'system', content: 'be nice' },
        { role: 'user', content: 'What is a topic?' },
      ],
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      object: string;
      model: string;
      choices: { message: { role: string; content: string }; finish_reason: string }[];
      citations: { index: number; relevance_score: number }[];
      cohort: { agent_used: string; session_id: string };
      usage: { total_tokens: number };
    };
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('cohort');
    expect(body.choices[0]?.message.content).toContain('**Sources:**');
    expect(body.choices[0]?.finish_reason).toBe('stop');
    expect(body.citations[0]).toMatchObject({ index: 1, relevance_score: 0.9 });
    expect(body.cohort).toMatchObject({ agent_used: 'glossary', session_id: 'anonymous' });
  });

  it('forces the agent named as the model and keeps history in a derived session', async () => {
    const messages = [
      { role: 'user', content: 'What is a topic?' },
      { role: 'assistant', content: 'A topic is a named channel [1].' },
      { role: 'user', content: [{ type: 'text', text: 'And the hardware?' }] },
    ];
    const first = (await (
      await post('/v1/chat/completions', { model: 'hardware', messages })
    ).json()) as {
      cohort: { agent_used: string; session_id: string };
    };
    expect(first.cohort.agent_used).toBe('hardware');
    expect(first.cohort.session_id).toMatch(/^[0-9a-f]{8}-/);
    const history = (await (
      await app.request(`/sessions/${first.cohort.session_id}/messages`)
    ).json()) as { messages: { content: string }[] };
    expect(history.messages.map((m) => m.content).slice(0, 3)).toEqual([
      'What is a topic?',
      'A topic is a named channel [1].',
      'And the hardware?',
    ]);
    const again = (await (
      await post('/v1/chat/completions', { model: 'hardware', messages })
    ).json()) as { cohort: { session_id: string } };
    expect(again.cohort.session_id).toBe(first.cohort.session_id);
    const byUser = (await (
      await post('/v1/chat/completions', {
        model: 'cohort',
        user: 'ada',
        messages: messages.slice(0, 1),
      })
    ).json()) as { cohort: { session_id: string } };
    expect(byUser.cohort.session_id).not.toBe('anonymous');
  });

  it('seeds a new derived session with its history once when its first requests arrive together', async () => {
    // Each checked that the session was new, then saved the history: four requests, four copies.
    const messages = [
      { role: 'user', content: 'What is a node? (seeded once)' },
      { role: 'assistant', content: 'A process [1].' },
      { role: 'user', content: 'And a topic?' },
    ];
    const answers = await Promise.all(
      [1, 2, 3, 4].map(async () =>
        (await post('/v1/chat/completions', { model: 'cohort', user: 'grace', messages })).json(),
      ),
    );
    const sessionId = (answers[0] as { cohort: { session_id: string } }).cohort.session_id;
    const history = (await (await app.request(`/sessions/${sessionId}/messages`)).json()) as {
      messages: { content: string }[];
    };
    const contents = history.messages.map((m) => m.content);
    expect(contents.filter((c) => c === 'What is a node? (seeded once)')).toHaveLength(1);
    expect(contents.filter((c) => c === 'And a topic?')).toHaveLength(4);
  });

  it('streams chat.completion.chunk events ending in [DONE]', async () => {
    const response = await post('/v1/chat/completions', {
      model: 'cohort',
      stream: true,
      messages: [{ role: 'user', content: 'What is a topic?' }],
    });
    const events = await readSse(response);
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map(
      (e) =>
        JSON.parse(e.data) as {
          object: string;
          choices: { delta: { role?: string; content?: string }; finish_reason: string | null }[];
          citations?: unknown[];
        },
    );
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.citations).toHaveLength(1);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toContain('**Sources:**');
  });

  it('checks the sampling fields it ignores against their ranges, naming a wrong one', async () => {
    const ask = (extra: Record<string, unknown>) =>
      post('/v1/chat/completions', {
        model: 'cohort',
        messages: [{ role: 'user', content: 'What is a ROS 2 topic?' }],
        ...extra,
      });
    for (const [field, value] of [
      ['temperature', 'hot'],
      ['temperature', 3],
      ['top_p', -1],
      ['max_tokens', 0],
      ['n', 5],
    ] as const)
      expect(await errorOf(await ask({ [field]: value }))).toMatchObject({ status: 422, field });
    const fine = await ask({ temperature: 0.2, top_p: 1, max_tokens: 256, n: 1, seed: 7 });
    expect(fine.status).toBe(200);
  });

  it("refuses a tool_choice that needs a call of the client's tools, which cohort never makes", async () => {
    // 'required' or a named function was ignored: the client, waiting for tool_calls, got text.
    const ask = (extra: Record<string, unknown>) =>
      post('/v1/chat/completions', {
        model: 'cohort',
        messages: [{ role: 'user', content: 'What is a ROS 2 topic?' }],
        tools: [{ type: 'function', function: { name: 'lookup', parameters: {} } }],
        ...extra,
      });
    for (const choice of ['required', { type: 'function', function: { name: 'lookup' } }])
      expect(await errorOf(await ask({ tool_choice: choice }))).toMatchObject({
        status: 422,
        field: 'tool_choice',
        message: expect.stringMatching(/"auto" or "none": cohort answers with text/),
      });
    for (const choice of ['auto', 'none', undefined])
      expect((await ask(choice ? { tool_choice: choice } : {})).status).toBe(200);
  });

  it('refuses a JSON response_format and logprobs, which it cannot give, and sends usage when a stream asks', async () => {
    // Both were accepted and ignored: a client asking for JSON got prose, one asking for log
    // probabilities none; and stream_options.include_usage sent no usage chunk.
    const ask = (extra: Record<string, unknown>) =>
      post('/v1/chat/completions', {
        model: 'cohort',
        messages: [{ role: 'user', content: 'What is a ROS 2 topic?' }],
        ...extra,
      });
    for (const [field, value, named] of [
      ['response_format', { type: 'json_object' }, 'response_format.type'],
      [
        'response_format',
        { type: 'json_schema', json_schema: { name: 'x', schema: {} } },
        'response_format.type',
      ],
      ['logprobs', true, 'logprobs'],
    ] as const)
      expect(await errorOf(await ask({ [field]: value }))).toMatchObject({
        status: 422,
        field: named,
        message: expect.stringMatching(/cohort/),
      });
    const fine = await ask({ response_format: { type: 'text' }, logprobs: false });
    expect(fine.status).toBe(200);
    const events = await readSse(
      await ask({ stream: true, stream_options: { include_usage: true } }),
    );
    expect(events.at(-1)?.data).toBe('[DONE]');
    const last = JSON.parse(events.at(-2)?.data ?? '{}') as Record<string, unknown>;
    expect(last).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
    const plain = await readSse(await ask({ stream: true }));
    expect(plain.some((event) => event.data.includes('"usage"'))).toBe(false);
  });

  it('rejects an unknown model (404), no user message (422) and bad shapes (422)', async () => {
    expect(
      await errorOf(
        await post('/v1/chat/completions', {
          model: 'gpt-4',
          messages: [{ role: 'user', content: 'hi' }],
        }),
      ),
    ).toMatchObject({
      status: 404,
      field: 'model',
      message: expect.stringContaining('"cohort"'),
    });
    expect(
      await errorOf(
        await post('/v1/chat/completions', {
          model: 'cohort',
          messages: [{ role: 'system', content: 'hi' }],
        }),
      ),
    ).toMatchObject({ status: 422, field: 'messages' });
    expect(
      await errorOf(await post('/v1/chat/completions', { model: 'cohort', messages: [] })),
    ).toMatchObject({ status: 422, field: 'messages' });
    expect(
      await errorOf(
        await post('/v1/chat/completions', { messages: [{ role: 'user', content: 'hi' }] }),
      ),
    ).toMatchObject({ status: 422, field: 'model' });
    expect(
      await errorOf(
        await post('/v1/chat/completions', {
          model: 'cohort',
          messages: [{ role: 'user', content: 'x'.repeat(2001) }],
        }),
      ),
    ).toMatchObject({ status: 422, field: 'messages' });
  });

  it('lists cohort and every agent as models', async () => {
    const body = (await (await app.request('/v1/models')).json()) as {
      object: string;
      data: { id: string; object: string }[];
    };
    expect(body.object).toBe('list');
    expect(body.data.map((m) => m.id)).toEqual(['cohort', 'glossary', 'hardware', 'book']);
  });
});

describe('health, OpenAPI, the page and unknown routes', () => {
  it('reports the store and the answering mode', async () => {
    const response = await app.request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      store: { engine: 'pglite', reachable: true },
      mode: 'extractive',
      mode_description: 'extractive (test)',
      agents: 3,
    });
  });

  it('serves an OpenAPI 3.1 document built from the schemas, in snake_case', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: {
        schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }>;
      };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/chat',
        '/chat/stream',
        '/route',
        '/agents',
        '/sessions/{id}/messages',
        '/sessions/{id}',
        '/v1/chat/completions',
        '/v1/models',
        '/healthz',
        '/research',
        '/research/stream',
      ]),
    );
    expect(Object.keys(doc.components.schemas.ResearchResponse!.properties)).toEqual(
      expect.arrayContaining(['run_id', 'question', 'findings', 'report']),
    );
    expect(Object.keys(doc.components.schemas.ChatResponse!.properties)).toEqual(
      expect.arrayContaining(['agent_used', 'routing_confidence', 'session_id']),
    );
    expect(doc.components.schemas.ChatRequest!.required).toEqual(['query']);
    expect(doc.components.schemas.ChatRequest!.properties).toHaveProperty('session_id');
  });

  it('documents every route the app registers in the OpenAPI document', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    // Hono's route table: middleware is registered for ALL methods and is no route.
    const registered = app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => ({
        path: route.path.replace(/:([A-Za-z_]+)/g, '{$1}'),
        method: route.method.toLowerCase(),
      }));
    expect(registered.length).toBeGreaterThan(20);
    const missing = registered
      .filter(({ path, method }) => doc.paths[path]?.[method] === undefined)
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(missing).toEqual([]);
    // And nothing documented that is not served.
    const served = new Set(registered.map(({ path, method }) => `${method} ${path}`));
    const extra = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => !served.has(`${method} ${path}`))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(extra).toEqual([]);
  });

  it('serves the page with a content security policy and revalidates by ETag', async () => {
    const response = await app.request('/');
    expect(await response.text()).toBe('<html>chat</html>');
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const etag = response.headers.get('etag')!;
    expect((await app.request('/', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('is a JSON 404 for an unknown route, and a 405 naming the methods for a known one', async () => {
    expect(await errorOf(await app.request('/nope'))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    const wrongMethod = await app.request('/chat');
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(await errorOf(wrongMethod)).toMatchObject({
      status: 405,
      code: 'method_not_allowed',
      message: expect.stringContaining('/chat does not take GET; use POST'),
    });
    // A path with a parameter, and GET routes, which answer HEAD too.
    const put = await app.request('/runs/abc/trace', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
    expect((await app.request('/sessions/x/messages/y', { method: 'POST' })).status).toBe(404);
    // A trailing slash is another path: it was a 405 telling a GET to use GET.
    expect(await errorOf(await app.request('/agents/'))).toMatchObject({
      status: 404,
      code: 'not_found',
      message: expect.stringContaining('did you mean /agents, without the trailing slash?'),
    });
  });

  it('is 503 when the store is unreachable', async () => {
    db.down = true;
    try {
      expect(await errorOf(await app.request(`/sessions/${SESSION}/messages`))).toMatchObject({
        status: 503,
        code: 'store_unavailable',
      });
      const health = await app.request('/healthz');
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({
        status: 'unavailable',
        store: { reachable: false },
      });
      expect(
        await errorOf(await post('/chat', { query: 'What is a topic?', session_id: SESSION })),
      ).toMatchObject({ status: 503, code: 'store_unavailable' });
    } finally {
      db.down = false;
    }
    // Back up: the first probe after says so, without waiting for the health refresh.
    expect((await app.request('/healthz')).status).toBe(200);
  });

  it('answers /healthz from memory while the store is known good, and flips on the first failed request', async () => {
    let pings = 0;
    const counted = { ...store, ping: () => (pings++, store.ping()) };
    const served = testServer(counted, { now: () => 0 });
    expect((await served.request('/healthz')).status).toBe(200);
    expect((await served.request('/healthz')).status).toBe(200);
    expect(pings).toBe(1);
    db.down = true;
    try {
      // The clock stands still, so only the failed request can tell the health record.
      expect((await served.request('/healthz')).status).toBe(200);
      expect(await errorOf(await served.request(`/sessions/${SESSION}/messages`))).toMatchObject({
        status: 503,
        code: 'store_unavailable',
      });
      expect((await served.request('/healthz')).status).toBe(503);
    } finally {
      db.down = false;
    }
    expect((await served.request('/healthz')).status).toBe(200);
  });
});
