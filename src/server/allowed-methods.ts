import type { Hono } from 'hono';
import type { ServerEnv } from './server-env.js';

/**
 * The methods the app answers on a path, from its route table (middleware, registered for every
 * method, does not count), so a request with the wrong method can be told which ones to use
 * (`405` with `Allow`) instead of hearing that the route does not exist. HEAD comes with GET, as
 * Hono answers HEAD through the GET handler.
 *
 * @example
 * const allowed = allowedMethods(app);
 * allowed('/chat'); // ['POST']
 */
export function allowedMethods(app: Hono<ServerEnv>): (path: string) => string[] {
  let table: { pattern: RegExp; method: string }[] | undefined;
  return (path) => {
    // Built on first use: every route is registered by then.
    table ??= app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => ({ pattern: pathPattern(route.path), method: route.method }));
    const methods = new Set(table.filter((row) => row.pattern.test(path)).map((row) => row.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}

/** A Hono route path (`/runs/:id/trace`, `/assets/*`) as an anchored regular expression. */
function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  // Exact, as Hono's router is: `/agents/` is not `/agents` (it was told to use GET for a GET).
  return new RegExp(`^${source}$`);
}
