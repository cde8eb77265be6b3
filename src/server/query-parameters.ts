import type { MiddlewareHandler } from 'hono';
import { apiError, HttpError } from './api-error.js';
import type { ServerEnv } from './server-env.js';

/**
 * The query parameters each route reads; every other route reads none. One home: a route that
 * starts reading a parameter adds it here, or its callers are refused.
 */
const TAKES: ReadonlyArray<{ path: RegExp; names: readonly string[] }> = [
  { path: /^\/sessions\/[^/]+\/messages$/, names: ['limit'] },
];

/**
 * Paths whose query strings are not the API's to judge: the web page and its assets (a link to
 * the page may carry a tracking or cache-busting parameter), and the OpenAI-compatible routes,
 * which take OpenAI's requests and ignore what they do not use (Azure's clients add
 * `?api-version=…`), as they ignore unknown body fields.
 */
const NOT_CHECKED = /^\/(?:app\.js|app\.css|v1\/.*)?$/;

/**
 * The first query parameter of `search` (`?limit=5&x=1`) the route at `path` does not read, if
 * any.
 *
 * @example
 * unknownQueryParameter('/agents', '?verbose=1'); // 'verbose'
 * unknownQueryParameter('/sessions/…/messages', '?limit=5'); // undefined
 */
export function unknownQueryParameter(path: string, search: string): string | undefined {
  if (search === '' || search === '?' || NOT_CHECKED.test(path)) return undefined;
  const names = TAKES.find((route) => route.path.test(path))?.names ?? [];
  for (const name of new URLSearchParams(search).keys()) {
    if (!names.includes(name)) return name;
  }
  return undefined;
}

/**
 * Refuses a request to a route it names with a query parameter that route does not read, with a
 * 400 naming the parameter and the ones the route takes: `GET /agents?domain=hardware` answered
 * every agent, and `/sessions/:id/messages?limt=5` the default 100 messages, without a word.
 * Paths no route answers (`knows` is false) are left to the 404 and 405 answers.
 */
export function refuseUnknownQueryParameters(
  knows: (path: string, method: string) => boolean,
): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const url = c.req.url;
    const at = url.indexOf('?');
    if (at === -1) return next();
    const path = c.req.path;
    const name = unknownQueryParameter(path, url.slice(at));
    if (name === undefined || !knows(path, c.req.method)) return next();
    const names = TAKES.find((route) => route.path.test(path))?.names ?? [];
    const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
    const takes = names.length > 0 ? `takes only ${names.join(', ')}` : 'takes no query parameters';
    throw new HttpError(
      apiError(
        'bad_request',
        `Unknown query parameter "${shown}": ${c.req.method} ${path} ${takes}. See /openapi.json for the API.`,
        shown,
      ),
    );
  };
}
