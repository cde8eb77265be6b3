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
  };
}
