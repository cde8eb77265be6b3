import type { Context } from 'hono';
import type { Store } from '../store/index.js';
import { apiError, errorBody, toApiError, type ApiError } from './api-error.js';
import type { ServerEnv } from './server-env.js';

/**
 * Turns anything a route throws into an {@link ApiError}, checking the store when the cause is
 * unknown: an unreachable store is 503 `store_unavailable`, not a bare 500. 5xx errors are logged
 * with their cause; the client only sees a message it can act on and the request id.
 */
export async function describeFailure(
  error: unknown,
  c: Context<ServerEnv>,
  store: Pick<Store, 'ping'>,
): Promise<ApiError> {
  let failure = toApiError(error);
  if (failure.code === 'internal' && !(await store.ping().catch(() => false))) {
    failure = apiError(
      'store_unavailable',
      'The database is unreachable right now. Try again shortly; an operator should check DATABASE_URL or the data folder.',
    );
  }
  const log = c.get('logger');
  const cause = error instanceof Error ? { cause: error.message, stack: error.stack } : {};
  if (failure.status >= 500) log.error('request_failed', { code: failure.code, ...cause });
  else log.debug('request_rejected', { code: failure.code, message: failure.message });
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
