import type { HttpBindings } from '@hono/node-server';
import type { Logger } from '../telemetry/index.js';

/**
 * The Hono environment of every route: the Node request (absent under `app.request` in tests) and
 * the per-request id and logger set by the request-context middleware.
 */
export interface ServerEnv {
  Bindings: Partial<HttpBindings>;
  Variables: { requestId: string; logger: Logger };
}
