import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { apiError, HttpError } from './api-error.js';
import type { ServerEnv } from './server-env.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Requires `Authorization: Bearer <apiKey>` when `apiKey` is set; without a key every request
 * passes. The comparison takes the same time whatever the token, so it leaks nothing.
 *
 * @example
 * app.use('/chat/*', bearerAuth({ apiKey: config.server.apiKey }));
 */
export function bearerAuth(options: { apiKey: string | undefined }): MiddlewareHandler<ServerEnv> {
  const expected = options.apiKey ? digest(options.apiKey) : undefined;
  return async (c, next) => {
    if (!expected) return next();
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
      c.header('WWW-Authenticate', 'Bearer realm="cohort"');
      throw new HttpError(
        apiError(
          'unauthorized',
          header
            ? 'The API key is wrong. Send the key the server was started with (COHORT_API_KEY).'
            : 'This server needs an API key: send "Authorization: Bearer <COHORT_API_KEY>".',
        ),
      );
    }
    return next();
  };
}
