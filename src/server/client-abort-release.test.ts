import { EventEmitter, getEventListeners } from 'node:events';
import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAbort, serverStopping } from './client-abort.js';
import type { ServerEnv } from './server-env.js';

/** The parts of a request's context `clientAbort` reads: its signal, the server's, the response. */
function fakeContext(
  stopping: AbortSignal,
  outgoing: EventEmitter,
  request = new AbortController(),
) {
  return {
    req: { raw: { signal: request.signal } },
    get: (key: string) => (key === 'stopping' ? stopping : undefined),
    env: { outgoing },
  } as unknown as Context<ServerEnv>;
}

describe('clientAbort and the server-wide stopping signal', () => {
  it('lets go of the stopping signal once the response is done or the run aborted', () => {
    // Found by outside testing: 50 streams aborted at once made Node warn "11 abort listeners
    // added to [AbortSignal]": each request left a listener on the server's stopping signal.
    const stopping = new AbortController();
    const responses = Array.from({ length: 20 }, () => new EventEmitter());
    const aborts = responses.map((outgoing) => clientAbort(fakeContext(stopping.signal, outgoing)));
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(20);
    for (const outgoing of responses.slice(0, 10)) outgoing.emit('close');
    for (const abort of aborts.slice(10, 15)) abort.abort();
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(5);
    // The runs still open stop with the server.
    stopping.abort(new Error('shutting down'));
    expect(aborts.slice(15).every((abort) => abort.signal.aborted)).toBe(true);
    expect(aborts.slice(0, 10).some((abort) => abort.signal.aborted)).toBe(false);
  });

  it('still follows the client leaving', () => {
    const request = new AbortController();
    const abort = clientAbort(
      fakeContext(new AbortController().signal, new EventEmitter(), request),
    );
    request.abort();
    expect(abort.signal.aborted).toBe(true);
  });

  it('keeps one listener per open request without Node warning of a leak', async () => {
    // Found by outside testing: 12 concurrent /chat/stream requests on `cohort serve` printed
    // "MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort
    // listeners added to [AbortSignal]", though every listener is released with its response.
    const warnings: Array<Error & { target?: unknown }> = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const stopping = serverStopping();
      const responses = Array.from({ length: 50 }, () => new EventEmitter());
      for (const outgoing of responses) clientAbort(fakeContext(stopping.signal, outgoing));
      expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(50);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.target === stopping.signal)).toEqual([]);
      for (const outgoing of responses) outgoing.emit('close');
      expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
