import type { Context } from 'hono';
import { isCohortError } from '../errors/index.js';
import { storeFaultError, type Store } from '../store/index.js';
import { apiError, errorBody, toApiError, type ApiError } from './api-error.js';
import type { ServerEnv } from './server-env.js';

/** True for the errors an aborted signal raises (`AbortError`, cohort's `aborted`). */
function isAbort(error: unknown): boolean {
  return isCohortError(error, 'aborted') || (error instanceof Error && error.name === 'AbortError');
}

/**
 * Turns anything a route throws into an {@link ApiError}, checking the store when the cause is
 * unknown: an unreachable store is 503 `store_unavailable`, not a bare 500. A 500 is logged as an
 * error with its cause and stack; a 503/504 the server chose is logged as a warning with its
 * message only; the client only sees a message it can act on and the request id. A client
 * that went away is logged at info level as `client_disconnected`.
 */
export async function describeFailure(
  error: unknown,
  c: Context<ServerEnv>,
  store: Pick<Store, 'ping'>,
): Promise<ApiError> {
  const log = c.get('logger');
  // Stopped by the server's shutdown, not by the client, who is still there to read why.
  if (c.get('stopping')?.aborted && !c.req.raw.signal?.aborted && isAbort(error)) {
    log.info('shutdown_stopped_request', { method: c.req.method, path: c.req.path });
    return apiError(
      'shutting_down',
      'The server is shutting down and stopped this request before it finished: send it again (a run with an id can be resumed once the server is back).',
    );
  }
  // A client that closed the connection is not a server failure: nobody reads the answer.
  if (c.req.raw.signal?.aborted || isAbort(error)) {
    log.info('client_disconnected', { method: c.req.method, path: c.req.path });
    return apiError('aborted', 'The request was cancelled: the client closed the connection.');
  }
  let failure = toApiError(error);
  const damaged = failure.code === 'internal' ? storeFaultError(error) : undefined;
  if (damaged) {
    // Not a crash of the server: what it needs is stored damaged, or its disk is full, and every
    // retry fails alike.
    failure = apiError('store_unavailable', damaged.message);
  } else if (failure.code === 'internal' && !(await store.ping().catch(() => false))) {
    failure = apiError(
      'store_unavailable',
      'The database is unreachable right now. Try again shortly; an operator should check DATABASE_URL or the data folder.',
    );
  }
  if (failure.status === 500) {
    // A crash: the operator needs the cause and where it came from.
    const cause = error instanceof Error ? { cause: error.message, stack: error.stack } : {};
    log.error('request_failed', { code: failure.code, ...cause });
  } else if (failure.status >= 500) {
    // A 503/504 the server chose (no model configured, a timeout, the store down) is a state to
    // report plainly, not a crash: its message says what is wrong, a stack trace adds nothing.
    log.warn('request_unavailable', {
      status: failure.status,
      code: failure.code,
      message: failure.message,
    });
  } else log.debug('request_rejected', { code: failure.code, message: failure.message });
  return failure;
}

/**
 * The app's error handler: a JSON `{ error: { code, message, field } }` with the mapped status.
 *
 * @example
 * app.onError(errorHandler(store));
 */
export function errorHandler(store: Pick<Store, 'ping'>) {
  return async (error: Error, c: Context<ServerEnv>): Promise<Response> => {
    const failure = await describeFailure(error, c, store);
    return c.json(errorBody(failure), failure.status);
  };
}
