import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { bodySizeLimit } from './body-size-limit.js';

const LIMIT = 16;

function app() {
  const served = new Hono();
  served.use(bodySizeLimit({ maxSize: LIMIT, onError: (c) => c.text('too large', 413) }));
  served.get('/probe', (c) => c.text('ok'));
  served.post('/echo', async (c) => c.text(await c.req.text()));
  return served;
}

/** The request, with a count of how often anything read its `body`. */
function watched(request: Request) {
  const reads = { body: 0 };
  const proxy = new Proxy(request, {
    get(target, key) {
      if (key === 'body') reads.body += 1;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { request: proxy, reads };
}

const streamOf = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of text.match(/.{1,4}/g) ?? [])
        controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });

describe('bodySizeLimit', () => {
  it('never reads the body of a GET', async () => {
    const { request, reads } = watched(new Request('http://local/probe'));
    const response = await app().fetch(request);
    expect(await response.text()).toBe('ok');
    expect(reads.body).toBe(0);
  });

  it('refuses a declared length over the limit without reading the body', async () => {
    const body = 'x'.repeat(LIMIT + 1);
    const { request, reads } = watched(
      new Request('http://local/echo', {
        method: 'POST',
        body,
        headers: { 'content-length': String(body.length) },
      }),
    );
    const response = await app().fetch(request);
    expect(response.status).toBe(413);
    expect(reads.body).toBe(0);
  });

  it('passes a declared length within the limit, body intact', async () => {
    const response = await app().request('/echo', {
      method: 'POST',
      body: 'small',
      headers: { 'content-length': '5' },
    });
    expect(await response.text()).toBe('small');
  });

  it('counts a body of unknown length as it arrives', async () => {
    const post = (text: string) =>
      app().request('/echo', {
        method: 'POST',
        body: streamOf(text),
        duplex: 'half',
      } as RequestInit);
    expect((await post('y'.repeat(LIMIT + 4))).status).toBe(413);
    const within = await post('y'.repeat(LIMIT));
    expect(within.status).toBe(200);
    expect(await within.text()).toBe('y'.repeat(LIMIT));
  });
});
