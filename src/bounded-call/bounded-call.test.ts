import { describe, expect, it } from 'vitest';
import { CohortError } from '../errors/index.js';
import { boundedCall, settleBounded } from './bounded-call.js';

/** A call that never settles and ignores its signal: only the helper can end it. */
const deaf = () => new Promise<never>(() => undefined);

describe('boundedCall', () => {
  it('cuts off a call that ignores its signal, as a timeout naming the limit', async () => {
    await expect(boundedCall(deaf, { what: 'the lookup', timeoutMs: 20 })).rejects.toMatchObject({
      code: 'timeout',
      message: 'the lookup timed out after 20 ms',
    });
  });

  it('reports the caller cancelling as aborted, not as a timeout', async () => {
    const controller = new AbortController();
    const running = boundedCall(deaf, {
      what: 'the lookup',
      timeoutMs: 5_000,
      signal: controller.signal,
    });
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
  });

  it('retries retryable failures with backoff and passes each attempt its number', async () => {
    const attempts: number[] = [];
    const retries: number[] = [];
    const value = await boundedCall(
      async (_signal, attempt) => {
        attempts.push(attempt);
        if (attempt < 2) throw new CohortError('rate_limited', 'slow down');
        return 'ok';
      },
      {
        what: 'the lookup',
        timeoutMs: 1_000,
        maxRetries: 2,
        retryDelayMs: 1,
        isRetryable: (error) => error.code === 'rate_limited',
        onRetry: ({ delayMs }) => retries.push(delayMs),
      },
    );
    expect(value).toBe('ok');
    expect(attempts).toEqual([0, 1, 2]);
    expect(retries).toEqual([1, 2]);
  });

  it('does not retry what is not retryable, and maps the failure with toError', async () => {
    let calls = 0;
    const failing = boundedCall(
      async () => {
        calls++;
        throw new Error('bad request');
      },
      {
        what: 'the lookup',
        timeoutMs: 1_000,
        maxRetries: 3,
        toError: (thrown) => new CohortError('invalid_input', `mapped: ${String(thrown)}`),
      },
    );
    await expect(failing).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'mapped: Error: bad request',
    });
    expect(calls).toBe(1);
  });
});

describe('settleBounded', () => {
  it('returns the value, or the reason as a value, never throwing', async () => {
    expect(await settleBounded(async () => 3, { what: 'retrieval', timeoutMs: 100 })).toEqual({
      ok: true,
      value: 3,
    });
    expect(await settleBounded(deaf, { what: 'retrieval', timeoutMs: 10 })).toEqual({
      ok: false,
      reason: 'timeout',
      message: 'retrieval timed out after 10 ms',
    });
    const boom = new CohortError('timeout', 'HTTP 504');
    expect(
      await settleBounded(() => Promise.reject(boom), { what: 'web search', timeoutMs: 100 }),
    ).toEqual({ ok: false, reason: 'error', message: 'web search failed: HTTP 504', error: boom });
  });
});
