import type { Context, MiddlewareHandler } from 'hono';
import { apiError, HttpError } from './api-error.js';
import type { ServerEnv } from './server-env.js';

/** The window a per-minute limit counts in. */
const WINDOW_MS = 60_000;

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Requests a client may make per minute; 0 turns the limit off. */
  perMinute: number;
  /** Who a request counts against (the remote address by default). */
  clientKey?: (c: Context<ServerEnv>) => string;
  now?: () => number;
}

/** The remote address of a request, or `local` when there is no socket (in-process requests). */
export function remoteAddress(c: Context<ServerEnv>): string {
  return c.env?.incoming?.socket.remoteAddress ?? 'local';
}

/**
 * A fixed-window rate limit per client. Over the limit a request gets 429 `rate_limited` with
 * `Retry-After`. Counts live in this process: with several processes each enforces its own share.
 *
 * @example
 * app.use('/chat', rateLimit({ perMinute: 60 }));
 */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<ServerEnv> {
  const clientKey = options.clientKey ?? remoteAddress;
  const now = options.now ?? Date.now;
  // Counts of the current window only, so memory is bounded by the clients seen in one minute.
  let windowStart = 0;
  let counts = new Map<string, number>();
  return async (c, next) => {
    if (options.perMinute <= 0) return next();
    const time = now();
    if (time - windowStart >= WINDOW_MS) {
      windowStart = time - (time % WINDOW_MS);
      counts = new Map();
    }
    const key = clientKey(c);
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - time) / 1000));
    c.header('RateLimit-Limit', String(options.perMinute));
    c.header('RateLimit-Remaining', String(Math.max(0, options.perMinute - count)));
    if (count > options.perMinute) {
      c.header('Retry-After', String(retryAfter));
      throw new HttpError(
        apiError(
          'rate_limited',
          `Too many requests: the limit is ${options.perMinute} per minute. Retry in ${retryAfter} s.`,
        ),
      );
    }
    return next();
  };
}
