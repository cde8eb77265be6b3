import { describe, expect, it } from 'vitest';
import { suiteStore, testServer } from '../test/test-server.js';

const store = suiteStore();
const app = () => testServer(store());

const postRaw = (path: string, body: string) =>
  app().request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

const JSON_ENDPOINTS = [
  '/chat',
  '/chat/stream',
  '/route',
  '/research',
  '/research/stream',
  '/v1/chat/completions',
];

describe('hostile request bodies', () => {
  it('answers JSON nested thousands of levels deep with a 400 that says so, on every endpoint', async () => {
    const deep = `{"query": ${'['.repeat(5000)}1${']'.repeat(5000)}}`;
    for (const path of JSON_ENDPOINTS) {
      const res = await postRaw(path, deep);
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('malformed_json');
      expect(body.error.message).toMatch(/nested more than 64 levels/);
    }
  });

  it('refuses a body that is not valid UTF-8 with a 400 on every endpoint, not U+FFFD', async () => {
    const bytes = (...parts: Array<string | number[]>) =>
      Buffer.concat(
        parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))),
      );
    const bodies = [
      bytes('{"query":"', [0xff, 0xfe], '"}'), // never in UTF-8
      bytes('{"query":"topic ', [0xe2, 0x82], '"}'), // a sequence cut short
      bytes('{"query":"', [0xc0, 0xaf], '"}'), // an overlong "/"
      bytes('{"query":"', [0xed, 0xa0, 0x80], '"}'), // a surrogate encoded as UTF-8
    ];
    for (const path of JSON_ENDPOINTS) {
      for (const body of bodies) {
        const res = await app().request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(res.status, `${path} ${body.toString('hex')}`).toBe(400);
        const error = ((await res.json()) as { error: { code: string; message: string } }).error;
        expect(error.code).toBe('malformed_json');
        expect(error.message).toMatch(/not valid UTF-8/);
      }
    }
    // Text outside ASCII, sent as UTF-8, is read as sent.
    const res = await app().request('/route', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"query":"Qu\'est-ce qu\'un topic ? é ü 🤖"}'),
    });
    expect(res.status).toBe(200);
  });

  it('refuses a NUL character or a lone surrogate in any string with a 422 invalid_input naming the field and what it holds', async () => {
    // JSON that parses is readable: a string holding what cannot be stored is a wrong field value.
    const cases: [string, string, string, RegExp][] = [
      ['/chat', '{"query": "What is a topic?\\u0000"}', 'query', /a NUL character at position 17/],
      [
        '/chat',
        '{"query": "What is a topic? \\ud800"}',
        'query',
        /an unpaired UTF-16 surrogate \(U\+D800\) at position 18/,
      ],
      [
        '/chat',
        '{"query": "topic", "selected_text": "\\udc00 alone"}',
        'selected_text',
        /an unpaired UTF-16 surrogate \(U\+DC00\) at position 1/,
      ],
      ['/research', '{"question": "\\u0000"}', 'question', /a NUL character at position 1/],
      [
        '/v1/chat/completions',
        '{"model": "cohort", "messages": [{"role": "user", "content": "topic \\u0000"}]}',
        'messages.0.content',
        /a NUL character/,
      ],
      ['/route', '{"query\\u0000": "topic"}', 'query\u0000', /a NUL character/],
      ['/route', '{"query": "\\ud800"}', 'query', /unpaired UTF-16 surrogate \(U\+D800\)/],
    ];
    for (const [path, body, field, found] of cases) {
      const res = await postRaw(path, body);
      expect(res.status, `${path} ${body}`).toBe(422);
      const error = (
        (await res.json()) as { error: { code: string; message: string; field: string } }
      ).error;
      expect(error.code).toBe('invalid_input');
      expect(error.message).toMatch(/NUL characters or unpaired UTF-16 surrogates/);
      expect(error.message).toMatch(found);
      if (!field.includes('\u0000')) {
        expect(error.field).toBe(field);
        expect(error.message.startsWith(`${field} `)).toBe(true);
      }
    }
    // A well-formed surrogate pair (an emoji) is fine.
    expect((await postRaw('/chat', '{"query": "What is a topic? \\ud83e\\udd16"}')).status).toBe(
      200,
    );
  });

  it('refuses a key given twice with a 400 naming it, on every endpoint, instead of keeping the last', async () => {
    for (const path of JSON_ENDPOINTS) {
      const field = path === '/v1/chat/completions' ? 'model' : 'query';
      const res = await postRaw(
        path,
        `{"${field}":"What is a topic?","${field}":"What is a node?"}`,
      );
      expect(res.status, path).toBe(400);
      const error = (
        (await res.json()) as { error: { code: string; message: string; field: string } }
      ).error;
      expect(error, path).toMatchObject({ code: 'malformed_json', field });
      expect(error.message).toContain(`gives the key "${field}" twice`);
    }
    const nested = await postRaw(
      '/v1/chat/completions',
      '{"model":"cohort","messages":[{"role":"user","content":"a","content":"b"}]}',
    );
    expect(nested.status).toBe(400);
    expect(((await nested.json()) as { error: { message: string } }).error.message).toContain(
      'the key "content" twice in "messages.0"',
    );
  });

  it('names an unknown field (message for query) instead of asking for a question', async () => {
    const cases: [string, string, string][] = [
      ['/chat', '{"message": "What is a topic?"}', 'message'],
      ['/chat/stream', '{"query": "topic", "sesion_id": "anonymous"}', 'sesion_id'],
      ['/route', '{"question": "topic"}', 'question'],
      ['/research', '{"query": "topic"}', 'query'],
    ];
    for (const [path, body, field] of cases) {
      const res = await postRaw(path, body);
      expect(res.status, `${path} ${body}`).toBe(422);
      const error = (
        (await res.json()) as { error: { code: string; message: string; field: string } }
      ).error;
      expect(error).toMatchObject({ code: 'invalid_input', field });
      expect(error.message).toContain(`Unknown field "${field}"`);
      expect(error.message).not.toContain('Please provide a question');
    }
    await expect((await postRaw('/chat', '{"message": "x"}')).json()).resolves.toMatchObject({
      error: { message: expect.stringContaining('query, session_id, selected_text') },
    });
    // camelCase spellings of known fields are still read.
    expect((await postRaw('/chat', '{"query": "topic", "sessionId": "anonymous"}')).status).toBe(
      200,
    );
  });

  it("tells an over-limit or wrongly typed field in cohort's words, naming it and its limit", async () => {
    // POST /chat with a 20,000-character selected_text said "Too big: expected string to have
    // <=10000 characters": neither the field nor what was sent.
    const message = (...body: unknown[]) => JSON.stringify(Object.assign({}, ...body));
    const turn = { model: 'cohort', messages: [{ role: 'user', content: 'hi' }] };
    const cases: [string, string, string, string][] = [
      [
        '/chat',
        message({ query: 'topic', selected_text: 'x'.repeat(20_000) }),
        'selected_text',
        'selected_text is 20000 characters; the limit is 10000',
      ],
      ['/chat/stream', message({ query: 'topic', agent: 5 }), 'agent', 'agent must be text, not 5'],
      [
        '/chat',
        message({ query: 'topic', multi_domain: 'both' }),
        'multi_domain',
        'multi_domain must be one of "sequential", "parallel", not "both"',
      ],
      [
        '/code',
        message({ request: 'x'.repeat(20_001) }),
        'request',
        'request is 20001 characters; the limit is 20000',
      ],
      ['/code', message({ request: 'fix it', skill: '' }), 'skill', 'skill must not be empty'],
      [
        '/v1/chat/completions',
        message(turn, { temperature: 5 }),
        'temperature',
        'temperature is 5; the limit is 2',
      ],
      [
        '/v1/chat/completions',
        message(turn, { max_tokens: 1.5 }),
        'max_tokens',
        'max_tokens must be a whole number, not 1.5',
      ],
      [
        '/v1/chat/completions',
        message(turn, { user: 'u'.repeat(300) }),
        'user',
        'user is 300 characters; the limit is 256',
      ],
      [
        '/v1/chat/completions',
        message({ model: 'cohort', messages: [{ role: 'robot', content: 'hi' }] }),
        'messages.0.role',
        'messages.0.role must be one of "system", "developer", "user", "assistant", "tool", "function", not "robot"',
      ],
    ];
    for (const [path, body, field, text] of cases) {
      const res = await postRaw(path, body);
      expect(res.status, `${path} ${field}`).toBe(422);
      expect(await res.json()).toEqual({ error: { code: 'invalid_input', message: text, field } });
    }
    // A field's own message stands: the question's limit is told as the book assistant tells it.
    const long = await postRaw('/chat', message({ query: 'x'.repeat(3000) }));
    expect(((await long.json()) as { error: { message: string } }).error.message).toBe(
      'query: The question is too long: keep it to 2000 characters.',
    );
  });
});
