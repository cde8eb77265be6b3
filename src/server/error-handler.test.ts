import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { CohortError } from '../errors/index.js';
import { createLogger } from '../telemetry/index.js';
import { errorHandler } from './error-handler.js';
import { requestContext } from './request-context.js';
import type { ServerEnv } from './server-env.js';

/** An app whose routes throw, logging JSON lines into `lines`. */
function appLogging(lines: Record<string, unknown>[]) {
  const logger = createLogger({
    level: 'debug',
    write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const app = new Hono<ServerEnv>();
  app.use(requestContext(logger));
  app.get('/unconfigured', () => {
    throw new CohortError('model_not_configured', 'No model is configured: set OPENAI_API_KEY.');
  });
  app.get('/crash', () => {
    throw new TypeError('cannot read properties of undefined');
  });
  app.get('/damaged', () => {
    // What the store's thread rejects with when a page it reads back is not one it wrote.
    throw Object.assign(new Error('invalid page in block 0 of relation "base/5/16434"'), {
      code: 'XX001',
    });
  });
  app.get('/full', () => {
    // What a write on a full disk rejects with (PostgreSQL's disk_full).
    throw Object.assign(
      new Error('could not extend file "base/5/16434": No space left on device'),
      { code: '53100' },
    );
  });
  app.onError(errorHandler({ ping: () => Promise.resolve(true) }));
  return app;
}

describe('errorHandler logging', () => {
  it('logs a 503 the server chose as a plain warning, without a stack trace', async () => {
    const lines: Record<string, unknown>[] = [];
    const response = await appLogging(lines).request('/unconfigured');
    expect(response.status).toBe(503);
    const failures = lines.filter((line) => line.event !== 'request');
    expect(failures).toEqual([
      expect.objectContaining({
        level: 'warn',
        event: 'request_unavailable',
        status: 503,
        code: 'model_not_configured',
        message: 'No model is configured: set OPENAI_API_KEY.',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it("answers a write on the store's full disk 503, saying so and what to do", async () => {
    // It was 500 "The server failed to answer this request" on every /chat with a session_id.
    const lines: Record<string, unknown>[] = [];
    const response = await appLogging(lines).request('/full');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: {
        code: 'store_unavailable',
        message: expect.stringContaining(
          'The store\'s disk is full (could not extend file "base/5/16434": No space left on device): free some space',
        ) as string,
      },
    });
  });

  it('answers a store error on damaged data 503, saying so and what to do', async () => {
    const lines: Record<string, unknown>[] = [];
    const response = await appLogging(lines).request('/damaged');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: {
        code: 'store_unavailable',
        message: expect.stringContaining(
          'The store\'s files are damaged (invalid page in block 0 of relation "base/5/16434")',
        ) as string,
      },
    });
  });

  it('logs a crash (500) as an error with its cause and stack', async () => {
    const lines: Record<string, unknown>[] = [];
    const response = await appLogging(lines).request('/crash');
    expect(response.status).toBe(500);
    const failure = lines.find((line) => line.event === 'request_failed');
    expect(failure).toMatchObject({
      level: 'error',
      code: 'internal',
      cause: 'cannot read properties of undefined',
    });
    expect(String(failure?.stack)).toContain('TypeError');
  });
});
