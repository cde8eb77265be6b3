import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { CohortError } from '../errors/index.js';
import { callWithRetry, isRetryable, retryDelay, toServiceError } from './retry.js';

const apiError = (statusCode: number, headers: Record<string, string> = {}) =>
  new APICallError({
    message: 'x',
    url: 'u',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    isRetryable: statusCode === 429 || statusCode >= 500,
  });
const classify = (error: unknown) =>
  toServiceError(error, { what: 'model call', timedOut: false, timeoutMs: 1000, cancelled: false });

describe('retry policy', () => {
  it('retries 429, 5xx, network failures and timeouts, not client errors', () => {
    expect(isRetryable(classify(apiError(429)))).toBe(true);
    expect(isRetryable(classify(apiError(502)))).toBe(true);
    expect(isRetryable(classify(new TypeError('fetch failed')))).toBe(true);
    expect(isRetryable(new CohortError('timeout', 't'))).toBe(true);
    expect(isRetryable(classify(apiError(400)))).toBe(false);
    expect(isRetryable(classify(new SyntaxError('bad json')))).toBe(false);
  });

  it('backs off exponentially and honours retry-after within a cap', () => {
    expect(retryDelay(1, classify(apiError(500)), 100)).toBe(100);
    expect(retryDelay(3, classify(apiError(500)), 100)).toBe(400);
    expect(retryDelay(1, classify(apiError(429, { 'retry-after-ms': '5' })), 100)).toBe(5);
    expect(retryDelay(1, classify(apiError(429, { 'retry-after': '2' })), 100)).toBe(2000);
    expect(retryDelay(1, classify(apiError(429, { 'retry-after': '3600' })), 100)).toBe(20_000);
  });

  it('callWithRetry times out each attempt and reports cancellation as aborted', async () => {
    let attempts = 0;
    const never = (signal: AbortSignal) =>
      new Promise<never>((_, reject) => {
        attempts++;
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    await expect(
      callWithRetry('test call', never, { maxRetries: 2, timeoutMs: 10, retryDelayMs: 1 }),
    ).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringContaining(
        'test call did not finish within 10 ms (model.timeoutSeconds bounds the whole call, an answer still being written included)',
      ),
    });
    expect(attempts).toBe(3);

    const controller = new AbortController();
    const running = callWithRetry('test call', never, {
      maxRetries: 2,
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
  });
});
