import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../telemetry/index.js';
import type { ServerEnv } from './server-env.js';

/** The header a request id travels in, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** An incoming id is kept only when it is this tame, so it cannot forge log lines. */
const SAFE_ID = /^[\w.:-]{1,128}$/;

/**
 * The id a request is known by: the caller's `x-request-id` when it is safe to log, else a new
 * UUID.
 *
 * @example
 * requestIdFor('trace-7'); // 'trace-7'
 * requestIdFor('a b'); // a new UUID
 */
export function requestIdFor(incoming: string | undefined): string {
  return incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Logs the one `request` line a request gets, on the request's own logger (which carries its id).
 *
 * @example
 * logRequest(log, { method: 'GET', path: '/healthz', status: 200, ms: 0 });
 */
export function logRequest(
  log: Logger,
  line: { method: string; path: string; status: number; ms: number },
): void {
  log.info('request', line);
}

/**
 * Logs the `request` line of a request that has no logger of its own, its id among the line's
 * fields: the same line as {@link logRequest} on a child logger carrying `request_id` (the id
 * after the logger's own fields, then the rest), without making that child (five closures and two
 * objects) for one line that the default level does not even write. The fast paths log so.
 *
 * @example
 * logRequestWithId(logger, { request_id: id, method: 'GET', path: '/healthz', status: 200, ms: 0 });
 */
export function logRequestWithId(
  log: Logger,
  line: { request_id: string; method: string; path: string; status: number; ms: number },
): void {
  log.info('request', line);
}

/**
 * Gives each request an id (the caller's `x-request-id` when safe, else a new UUID), returns it in
 * the response header, and logs one `request` line with method, path, status and duration.
 *
 * @example
 * app.use(requestContext(logger));
 */
export function requestContext(
  logger: Logger,
  now: () => number = performance.now.bind(performance),
): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const incoming = c.req.header(REQUEST_ID_HEADER);
    const requestId = requestIdFor(incoming);
    const log = logger.child({ request_id: requestId });
    c.set('requestId', requestId);
    c.set('logger', log);
    const started = now();
    // Served by @hono/node-server, the id goes on the Node response itself, which every response
    // is written through (a JSON body, a stream, the error handler's): a header set through Hono
    // instead makes each response carry a fetch `Headers` object, which node-server has to copy
    // header by header, and costs @hono/node-server's plain-object fast path.
    const outgoing = c.env?.outgoing;
    if (outgoing) {
      outgoing.setHeader(REQUEST_ID_HEADER, requestId);
      await next();
    } else {
      // Without a Node response (`app.request` in tests, other runtimes): set before the handler
      // runs, so `c.json()` and friends build the response with it, and again on a Response the
      // handler built itself.
      c.header(REQUEST_ID_HEADER, requestId);
      await next();
      if (c.res.headers.get(REQUEST_ID_HEADER) !== requestId)
        c.header(REQUEST_ID_HEADER, requestId);
    }
    logRequest(log, {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(now() - started),
    });
  };
}
