import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** Options of {@link bodySizeLimit}. */
export interface BodySizeLimitOptions {
  /** The largest body accepted, in bytes. */
  maxSize: number;
  /** The response to a body over the limit. */
  onError: (c: Context) => Response | Promise<Response>;
}

/** Methods whose requests carry no body the API reads. */
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses request bodies over `maxSize` bytes, reading the request itself only when it must.
 * GET, HEAD and OPTIONS pass untouched; a declared `content-length` is compared as it stands;
 * only a body of unknown length (chunked) is counted as it arrives, by Hono's `bodyLimit`. Hono's middleware alone reads `c.req.raw.body` on every
 * request, which makes `@hono/node-server` build a full `Request` (its slow path) even for a GET.
 *
 * @example
 * app.use(bodySizeLimit({ maxSize: 1_000_000, onError: (c) => c.text('too large', 413) }));
 */
export function bodySizeLimit(options: BodySizeLimitOptions): MiddlewareHandler {
  const streamed = bodyLimit(options);
  return async (c, next) => {
    if (BODYLESS.has(c.req.method)) return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length, 10) > options.maxSize ? options.onError(c) : next();
    }
    return streamed(c, next);
  };
}
