import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { apiError, HttpError } from './api-error.js';
import type { ServerEnv } from './server-env.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The API keys in a `server.apiKey` setting: comma-separated, blanks dropped. */
export function apiKeys(apiKey: string | undefined): string[] {
  return (apiKey ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
}

/**
 * Requires `Authorization: Bearer <key>` when `apiKey` is set (several keys may be given,
 * separated by commas: one per client); without a key every request passes. The comparison takes
 * the same time whatever the token, so it leaks nothing. The caller's principal (a digest of its
 * key) is set for the routes, which keep each key's sessions to itself.
 *
 * @example
 * app.use('/chat/*', bearerAuth({ apiKey: config.server.apiKey }));
 */
export function bearerAuth(options: { apiKey: string | undefined }): MiddlewareHandler<ServerEnv> {
  const keys = apiKeys(options.apiKey).map(digest);
  return async (c, next) => {
    if (keys.length === 0) return next();
    const header = (c.req.header('authorization') ?? '').trim();
    // The token is optional here so that `Bearer` with nothing after it reads as a missing key,
    // not a wrong one: the client forgot to fill it in (an empty COHORT_API_KEY in a script).
    const match = /^Bearer(?:\s+(.*))?$/i.exec(header);
    const token = match?.[1]?.trim() ?? '';
    const given = token ? digest(token) : undefined;
    // Every key is compared, so the time taken does not say which one matched.
    let matched: Buffer | undefined;
    for (const key of keys) if (given && timingSafeEqual(given, key)) matched = key;
    if (matched) c.set('principal', matched.toString('hex').slice(0, 32));
    if (!matched) {
      c.header('WWW-Authenticate', 'Bearer realm="cohort"');
      throw new HttpError(
        apiError(
          'unauthorized',
          !header
            ? 'This server needs an API key: send "Authorization: Bearer <COHORT_API_KEY>".'
            : match && !token
              ? 'The API key is missing: the Authorization header says Bearer but gives no key. Send "Authorization: Bearer <COHORT_API_KEY>".'
              : 'The API key is wrong. Send the key the server was started with (COHORT_API_KEY).',
        ),
      );
    }
    return next();
  };
}
