import type { Hono } from 'hono';
import type { Logger } from '../telemetry/index.js';
import { logRequestWithId, REQUEST_ID_HEADER, requestIdFor } from './request-context.js';
import type { ServerEnv } from './server-env.js';

/** The path of the health probe. */
export const HEALTH_PATH = '/healthz';

/** A Hono app's `fetch`. */
export type AppFetch = Hono<ServerEnv>['fetch'];

/** The probe's answer when it is known without waiting: a status and the JSON body text. */
export interface ProbeAnswer {
  status: number;
  body: string;
}

/** Options of {@link withFastProbe}. */
export interface FastProbeOptions {
  /**
   * The probe's answer, or `undefined` when it needs to wait (the store's health is unknown or
   * down): the app then answers as for any other request.
   */
  answer: () => ProbeAnswer | undefined;
  logger: Logger;
  /** Clock of the logged duration (default `performance.now`). */
  now?: () => number;
}

/** The path of an absolute request URL (`http://host/healthz?x` → `/healthz`). */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return url.slice(start, query === -1 ? undefined : query);
}

/**
 * Wraps an app's `fetch` so that `GET /healthz`, served by @hono/node-server while the store is
 * known good, is answered synchronously by the same response the app gives (same status, JSON
 * body, content type and `x-request-id`, and the same `request` log line), without Hono's
 * middleware chain. A load balancer probes this path many times a second: through the chain
 * (asynchronous by construction, since any middleware may `await next()`) it costs
 * @hono/node-server its fast path, where a handler's response is written at once, and with it a
 * third to half of the throughput of a bare Hono app. Every other request, a probe outside Node
 * (`app.request` in tests), and a probe that has to wait for the store, go to the app unchanged.
 *
 * @example
 * serve({ fetch: withFastProbe(app.fetch, { answer: () => ({ status: 200, body: '{}' }), logger }) });
 */
export function withFastProbe(fetch: AppFetch, options: FastProbeOptions): AppFetch {
  const now = options.now ?? performance.now.bind(performance);
  return (request, env, executionContext) => {
    const node = env as ServerEnv['Bindings'] | undefined;
    if (request.method !== 'GET' || !node?.incoming || !node.outgoing) {
      return fetch(request, env, executionContext);
    }
    const path = pathOf(request.url);
    // A query string goes to the app, which refuses the parameters it does not read.
    if (path !== HEALTH_PATH || request.url.includes('?')) {
      return fetch(request, env, executionContext);
    }
    const started = now();
    const answer = options.answer();
    if (!answer) return fetch(request, env, executionContext);
    const incoming = node.incoming.headers[REQUEST_ID_HEADER];
    const requestId = requestIdFor(typeof incoming === 'string' ? incoming : undefined);
    // A plain headers object and a string body: @hono/node-server writes such a response at once.
    const response = new Response(answer.body, {
      status: answer.status,
      headers: { 'content-type': 'application/json', [REQUEST_ID_HEADER]: requestId },
    });
    logRequestWithId(options.logger, {
      request_id: requestId,
      method: 'GET',
      path,
      status: answer.status,
      ms: Math.round(now() - started),
    });
    return response;
  };
}
