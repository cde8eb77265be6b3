import { Hono } from 'hono';
import type { ServerEnv } from '../server-env.js';
import type { WebAssets } from '../web-assets.js';

/** The page may only talk to this server: no CDN, no third-party fetches. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Serves the web chat page (`/`, `/app.js`, `/app.css`). Assets load on the first request and
 * are revalidated by ETag.
 *
 * @example
 * app.route('/', webRoutes(() => loadWebAssets()));
 */
export function webRoutes(load: () => Promise<WebAssets>) {
  let assets: Promise<WebAssets> | undefined;
  const app = new Hono<ServerEnv>();
  for (const path of ['/', '/app.js', '/app.css'] as const) {
    app.get(path, async (c) => {
      assets ??= load();
      // A failed load is retried on the next request rather than cached.
      const file = (
        await assets.catch((error: unknown) => {
          assets = undefined;
          throw error;
        })
      )[path];
      c.header('Cache-Control', 'no-cache');
      c.header('ETag', file.etag);
      c.header('X-Content-Type-Options', 'nosniff');
      if (path === '/') c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      if (c.req.header('if-none-match') === file.etag) return c.body(null, 304);
      return c.body(file.body, 200, { 'Content-Type': file.type });
    });
  }
  return app;
}
