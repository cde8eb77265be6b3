import type { Context } from 'hono';
import type { ServerEnv } from './server-env.js';

/**
 * The cancellation of the run a request starts, aborted when its client goes away. It follows the
 * request's own signal from the start (the Node adapter aborts that signal when the connection
 * closes before the answer is finished), so a client that leaves before the first event of a
 * stream (research planning, the first model call) or while a non-streamed answer is computed
 * stops the run, and no model call is retried for nobody. A streamed answer also calls `abort()`
 * from `stream.onAbort`, its own notice of the client gone. A server shutting down that stops
 * waiting for open requests aborts it too (`ServerEnv.stopping`).
 *
 * @example
 * const abort = clientAbort(c);
 * const started = await startEvents(assistant.askStream(input, { signal: abort.signal }));
 */
export function clientAbort(c: Context<ServerEnv>): AbortController {
  const abort = new AbortController();
  for (const signal of [c.req.raw.signal, c.get('stopping')]) {
    if (!signal) continue;
    if (signal.aborted) abort.abort(signal.reason);
    else signal.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
  }
  return abort;
}
