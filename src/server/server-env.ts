import type { HttpBindings } from '@hono/node-server';
import type { Logger } from '../telemetry/index.js';

/**
 * The Hono environment of every route: the Node request (absent under `app.request` in tests) and
 * the per-request id and logger set by the request-context middleware, and the caller's
 * principal set by the bearer-auth middleware.
 */
export interface ServerEnv {
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    logger: Logger;
    /** Who is calling, when API keys are in use: a digest of the caller's key, never the key. */
    principal?: string;
    /**
     * Aborted when the server, shutting down, stops waiting for open requests: a run it started
     * stops, and a stream says why in an `error` event before the connection is cut.
     */
    stopping?: AbortSignal;
  };
}
