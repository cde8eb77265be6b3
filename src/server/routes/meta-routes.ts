import { Hono } from 'hono';
import type { Assistant } from '../../assistant/index.js';
import { toWire } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import type { HealthResponse } from '../api-schemas.js';
import { buildOpenApiDocument } from '../openapi.js';
import type { ServerEnv } from '../server-env.js';
import { singleFlight } from '../single-flight.js';

/**
 * `GET /healthz` (200 when the store answers, 503 when not; says whether a model is configured or
 * the assistant runs extractively), `GET /openapi.json` and `GET /agents`.
 *
 * @example
 * app.route('/', metaRoutes({ assistant, store, modeDescription, version: () => '0.1.0' }));
 */
export function metaRoutes(parts: {
  assistant: Assistant;
  store: Pick<Store, 'ping' | 'db'>;
  modeDescription: string;
  /** The package version for `/openapi.json`, asked for on its first request. */
  version: () => string;
}) {
  const app = new Hono<ServerEnv>();
  let openApi: Record<string, unknown> | undefined;
  // Probes that arrive while a ping runs share it (see singleFlight): nothing is cached after.
  const ping = singleFlight(() => parts.store.ping().catch(() => false));

  app.get('/healthz', async (c) => {
    const reachable = await ping();
    const body: HealthResponse = {
      status: reachable ? 'ok' : 'unavailable',
      store: { engine: parts.store.db.engine, reachable },
      mode: parts.assistant.mode,
      modeDescription: parts.modeDescription,
      agents: parts.assistant.agents().total,
    };
    return c.json(toWire(body), reachable ? 200 : 503);
  });

  app.get('/openapi.json', (c) => {
    openApi ??= buildOpenApiDocument(parts.version());
    return c.json(openApi);
  });

  app.get('/agents', (c) => c.json(toWire(parts.assistant.agents())));

  return app;
}
