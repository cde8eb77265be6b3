import { Hono, type Context } from 'hono';
import type { Assistant } from '../../assistant/index.js';
import { toWire, type Wire } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import type { HealthResponse } from '../api-schemas.js';
import { buildOpenApiDocument } from '../openapi.js';
import { HEALTH_PATH } from '../fast-probe.js';
import type { ServerEnv } from '../server-env.js';
import type { StoreHealth } from '../store-health.js';

/** What the health probe reports on. */
export interface HealthParts {
  assistant: Pick<Assistant, 'mode' | 'agents'>;
  store: Pick<Store, 'db'>;
  modeDescription: string;
}

/**
 * The body of `GET /healthz` (200 with it when `reachable`, else 503), in wire form. The app's
 * route and the server's fast probe (`withFastProbe`) both answer with it.
 *
 * @example
 * healthBody({ assistant, store, modeDescription }, true).status; // 'ok'
 */
export function healthBody(parts: HealthParts, reachable: boolean): Wire<HealthResponse> {
  const body: HealthResponse = {
    status: reachable ? 'ok' : 'unavailable',
    store: { engine: parts.store.db.engine, reachable },
    mode: parts.assistant.mode,
    modeDescription: parts.modeDescription,
    agents: parts.assistant.agents().total,
  };
  return toWire(body);
}

/**
 * `GET /healthz` (200 when the store answers, 503 when not, from the server's health record; says whether a model is configured or
 * the assistant runs extractively), `GET /openapi.json` and `GET /agents`.
 *
 * @example
 * app.route('/', metaRoutes({ assistant, store, health, modeDescription, version: () => '0.1.0' }));
 */
export function metaRoutes(parts: {
  assistant: Assistant;
  store: Pick<Store, 'db'>;
  /** The store's reachability, kept by the server (see `storeHealth`). */
  health: Pick<StoreHealth, 'probe'>;
  modeDescription: string;
  /** The package version for `/openapi.json`, asked for on its first request. */
  version: () => string;
}) {
  const app = new Hono<ServerEnv>();
  let openApi: Record<string, unknown> | undefined;
  const respond = (c: Context<ServerEnv>, reachable: boolean): Response =>
    c.json(healthBody(parts, reachable), reachable ? 200 : 503);

  // A known-good store answers without waiting (no promise); otherwise the probe waits for a ping.
  app.get(HEALTH_PATH, (c): Response | Promise<Response> => {
    const reachable = parts.health.probe();
    return typeof reachable === 'boolean'
      ? respond(c, reachable)
      : reachable.then((known) => respond(c, known));
  });

  app.get('/openapi.json', (c) => {
    openApi ??= buildOpenApiDocument(parts.version());
    return c.json(openApi);
  });

  app.get('/agents', (c) => c.json(toWire(parts.assistant.agents())));

  return app;
}
