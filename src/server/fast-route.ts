import type { HttpBindings } from '@hono/node-server';
import { findDuplicateKey, plainQuery, type RouteResult } from '../schema/index.js';
import type { Logger } from '../telemetry/index.js';
import { pathOf, type AppFetch } from './fast-probe.js';
import { bodyEncodingProblem, JSON_CONTENT_TYPE, utf8Text } from './read-body.js';
import { logRequest, REQUEST_ID_HEADER, requestIdFor } from './request-context.js';
import type { ServerEnv } from './server-env.js';

/** The path of the routing endpoint. */
export const ROUTE_PATH = '/route';

/** Options of {@link withFastRoute}. */
export interface FastRouteOptions {
  /** Routes a question (the assistant's `route`); a throw leaves the request to the app. */
  route: (query: string) => RouteResult;
  /** The largest body accepted (`server.bodyLimitBytes`): a larger one goes to the app (413). */
  maxBodyBytes: number;
  logger: Logger;
  /** Clock of the logged duration (default `performance.now`). */
  now?: () => number;
}

/**
 * The question of a `POST /route` body when the body is exactly what the app's route accepts
 * without a word to say: a JSON object whose one key is `query`, a string of safe text that is
 * not blank and at most 2,000 characters once trimmed ({@link plainQuery}); trimmed, as the app's
 * `RouteRequest` reads it. Anything else (not JSON, other or extra keys, `query` given twice, a
 * question the app refuses) is `undefined`: the app answers it, with its own error.
 *
 * @example
 * plainRouteQuery('{"query":" What is a topic? "}'); // 'What is a topic?'
 * plainRouteQuery('{"query":""}'); // undefined (the app says 422)
 */
export function plainRouteQuery(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  let keys = 0;
  for (const key in body) {
    if (key !== 'query' || ++keys > 1) return undefined;
  }
  // `{"query":"a","query":"b"}` parses to one key: the app refuses it, naming the key.
  if (findDuplicateKey(text, body)) return undefined;
  return plainQuery((body as { query?: unknown }).query);
}

/**
 * The JSON text of the `/route` answer for a decision: the same text as the app's
 * `c.json(toWire(routeResponse(route)))`, keys in the same order, without walking the value to
 * rename its keys.
 *
 * @example
 * routeAnswerText(router.route('What is a topic?')); // '{"primary_agent":"glossary",...}'
 */
export function routeAnswerText(route: RouteResult): string {
  return JSON.stringify({
    primary_agent: route.primaryAgent,
    secondary_agents: route.secondaryAgents,
    confidence: route.confidence,
    reason: route.routingReason,
    is_multi_domain: route.isMultiDomain,
    phase: route.phase,
  });
}

/**
 * Wraps an app's `fetch` so that a plain `POST /route` served by @hono/node-server (a JSON body
 * of declared length within the limit, holding one valid question) is answered by the same
 * response the app gives (status 200, the JSON decision, content type and `x-request-id`, and
 * the same `request` log line) without Hono's middleware chain, its body reader and zod: on the
 * routing endpoint, which is cheap in itself, those cost as much as a whole request to a bare
 * Hono app. The body is read once; whatever the fast path does not take as it is (another
 * path or method, a chunked or oversized body, not JSON, a question the app would refuse, a
 * routing error) goes to the app with the same bytes, so every error keeps the app's answer.
 * Questions that arrive in the same turn of the event loop are routed one after another before
 * any is answered, which keeps routing's tables in the processor's caches. Only for a server
 * without CORS, rate limit or API key (those layers apply to `/route`).
 *
 * @example
 * serve({ fetch: withFastRoute(app.fetch, { route: assistant.route, maxBodyBytes, logger }) });
 */
export function withFastRoute(fetch: AppFetch, options: FastRouteOptions): AppFetch {
  const now = options.now ?? performance.now.bind(performance);

  // Questions whose bodies arrived in one turn of the event loop are routed together, then
  // answered together: routing's tables and code stay in the processor's caches from one
  // question to the next, instead of being evicted by the HTTP work of each request in between
  // (which made a route cost two to three times as much in the server as in a loop).
  let waiting: Array<{ query: string; done: (text: string | undefined) => void }> = [];
  const routeWaiting = () => {
    const batch = waiting;
    waiting = [];
    for (const { query, done } of batch) {
      let text: string | undefined;
      try {
        text = routeAnswerText(options.route(query));
      } catch {
        // The app routes it again and answers the error as it answers every error.
      }
      done(text);
    }
  };
  const routeSoon = (query: string) =>
    new Promise<string | undefined>((done) => {
      if (waiting.push({ query, done }) === 1) setImmediate(routeWaiting);
    });

  // The body read, then answered here or handed to the app as a request with the same bytes.
  const answer = async (
    request: Request,
    node: HttpBindings,
    executionContext: Parameters<AppFetch>[2],
  ): Promise<Response> => {
    const started = now();
    let bytes: ArrayBuffer;
    try {
      bytes = await request.arrayBuffer();
    } catch {
      // The client went away mid-body: the app meets the same unreadable body and says so.
      return fetch(request, node, executionContext);
    }
    // Bytes that are not UTF-8 go to the app, which answers 400 saying so.
    const body = utf8Text(bytes);
    const query = body === undefined ? undefined : plainRouteQuery(body);
    const text = query === undefined ? undefined : await routeSoon(query);
    if (text === undefined) {
      const again = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: bytes,
      });
      return fetch(again, node, executionContext);
    }
    const incoming = node.incoming.headers[REQUEST_ID_HEADER];
    const requestId = requestIdFor(typeof incoming === 'string' ? incoming : undefined);
    // A plain headers object and a string body: @hono/node-server writes it without copying.
    const response = new Response(text, {
      status: 200,
      headers: { 'content-type': 'application/json', [REQUEST_ID_HEADER]: requestId },
    });
    logRequest(options.logger.child({ request_id: requestId }), {
      method: 'POST',
      path: ROUTE_PATH,
      status: 200,
      ms: Math.round(now() - started),
    });
    return response;
  };

  return (request, env, executionContext) => {
    const node = env as ServerEnv['Bindings'] | undefined;
    if (request.method !== 'POST' || !node?.incoming || !node.outgoing) {
      return fetch(request, env, executionContext);
    }
    if (pathOf(request.url) !== ROUTE_PATH) return fetch(request, env, executionContext);
    const headers = node.incoming.headers;
    const type = headers['content-type'];
    const length = headers['content-length'];
    if (
      type === undefined ||
      !JSON_CONTENT_TYPE.test(type) ||
      length === undefined ||
      headers['transfer-encoding'] !== undefined ||
      bodyEncodingProblem(type, headers['content-encoding']) !== undefined ||
      !(Number.parseInt(length, 10) <= options.maxBodyBytes)
    ) {
      return fetch(request, env, executionContext);
    }
    return answer(request, node as HttpBindings, executionContext);
  };
}
