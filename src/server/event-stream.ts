import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { toWire } from '../schema/index.js';
import type { Store } from '../store/index.js';
import { errorBody } from './api-error.js';
import { clientAbort } from './client-abort.js';
import { describeFailure } from './error-handler.js';
import type { ServerEnv } from './server-env.js';
import { resumeEvents, startEvents } from './start-events.js';

/** Sends one named Server-Sent Event whose data is the wire (snake_case) JSON of `data`. */
export type SendEvent = (event: string, data: unknown) => Promise<void>;

/**
 * Answers with a run's events as Server-Sent Events. The run is started before the response is
 * committed, so a failure up front is still a plain error status (see {@link startEvents}); a
 * client that goes away, before the first event or after, aborts the run through the signal given
 * to `start` ({@link clientAbort}); a failure mid-stream
 * becomes an `error` event. `write` turns each event into the endpoint's own events.
 *
 * @example
 * return eventStreamResponse(c, {
 *   start: (signal) => assistant.askStream(request, { signal }),
 *   store,
 *   write: (event, send) => send(event.type, event),
 * });
 */
export async function eventStreamResponse<T>(
  c: Context<ServerEnv>,
  input: {
    start: (signal: AbortSignal) => AsyncIterable<T>;
    store: Pick<Store, 'ping'>;
    write: (event: T, send: SendEvent) => Promise<void>;
  },
): Promise<Response> {
  const abort = clientAbort(c);
  const started = await startEvents(input.start(abort.signal));
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => abort.abort());
    const send: SendEvent = (event, data) =>
      stream.writeSSE({ event, data: JSON.stringify(toWire(data)) });
    try {
      for await (const event of resumeEvents(started)) {
        if (stream.aborted) break;
        await input.write(event, send);
      }
    } catch (error) {
      if (!stream.aborted) {
        await send('error', errorBody(await describeFailure(error, c, input.store)));
      }
    }
  });
}
