import { setMaxListeners } from 'node:events';
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
 * The server's `stopping` signal lives as long as the server: the listener put on it is removed
 * when the response is done (its connection's `close`) or the run aborted. Left there, every
 * streamed request added one for good (Node warned of a leak after 11), each keeping its run's
 * controller and what listens to it.
 *
 * @example
 * const abort = clientAbort(c);
 * const started = await startEvents(assistant.askStream(input, { signal: abort.signal }));
 */
export function clientAbort(c: Context<ServerEnv>): AbortController {
  const abort = new AbortController();
  const request = c.req.raw.signal;
  if (request.aborted) abort.abort(request.reason);
  else request.addEventListener('abort', () => abort.abort(request.reason), { once: true });
  const stopping = c.get('stopping');
  if (stopping?.aborted) abort.abort(stopping.reason);
  else if (stopping) {
    const onStop = () => abort.abort(stopping.reason);
    stopping.addEventListener('abort', onStop, { once: true });
    const release = () => stopping.removeEventListener('abort', onStop);
    abort.signal.addEventListener('abort', release, { once: true });
    // The response written whole (or its connection gone): nothing is left to stop.
    c.env?.outgoing?.once('close', release);
  }
  return abort;
}

/**
 * The controller of a server's `stopping` signal ({@link ServerEnv}), which {@link clientAbort}
 * puts one listener on per open request. That is the design, not a leak, so the signal takes any
 * number: with Node's default of 10, the eleventh concurrent stream printed "Possible
 * EventTarget memory leak detected" on the server's stderr.
 *
 * @example
 * const stopping = serverStopping();
 * app.use((c, next) => (c.set('stopping', stopping.signal), next()));
 */
export function serverStopping(): AbortController {
  const stopping = new AbortController();
  setMaxListeners(0, stopping.signal);
  return stopping;
}
