import type { IncomingMessage, ServerResponse } from 'node:http';
import { findDuplicateKey, plainQuery, type RouteResult } from '../schema/index.js';
import type { Logger } from '../telemetry/index.js';
import type { RequestSource } from './host-guard.js';
import { apiError } from './api-error.js';
import { bodyEncodingProblem, JSON_CONTENT_TYPE, utf8Text } from './read-body.js';
import { logRequestWithId, REQUEST_ID_HEADER, requestIdFor } from './request-context.js';

/** The path of the routing endpoint. */
export const ROUTE_PATH = '/route';

/** Options of {@link withFastRoute}. */
export interface FastRouteOptions {
  /** Routes a question (the assistant's `route`); a throw leaves the request to the app. */
  route: (query: string) => RouteResult;
  /** The largest body accepted (`server.bodyLimitBytes`): a larger one goes to the app (413). */
  maxBodyBytes: number;
  logger: Logger;
  /** True when the Host and Origin guard refuses a request: the app then answers it (403). */
  refuses: (source: RequestSource) => boolean;
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

/** A Node request listener, as @hono/node-server's `getRequestListener` makes one. */
export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

/**
 * A request as the fast path hands it on, its body read: @hono/node-server makes the fetch
 * request's body of `rawBody` when it is set, instead of reading the stream (its hook for hosts
 * that read the body first, as Google Cloud Functions do). Every refused body of
 * fast-route.test.ts goes through it.
 */
type ReadIncoming = IncomingMessage & { rawBody?: Buffer };

/**
 * True when a request's line and headers are those of a plain `POST /route`: the path itself
 * (no query string), a JSON content type without a charset other than UTF-8 or a content
 * encoding, a declared length within `maxBodyBytes`, no chunked body, and a `Host` header.
 */
function isPlainRoutePost(incoming: IncomingMessage, maxBodyBytes: number): boolean {
  if (incoming.method !== 'POST') return false;
  // The path alone: a query string goes to the app, which refuses the parameters it does not read.
  if (incoming.url !== ROUTE_PATH) return false;
  const headers = incoming.headers;
  const type = headers['content-type'];
  const length = headers['content-length'];
  return (
    headers.host !== undefined &&
    type !== undefined &&
    JSON_CONTENT_TYPE.test(type) &&
    length !== undefined &&
    headers['transfer-encoding'] === undefined &&
    bodyEncodingProblem(type, headers['content-encoding']) === undefined &&
    Number.parseInt(length, 10) <= maxBodyBytes
  );
}

/**
 * Wraps the Node request listener of @hono/node-server so that a plain `POST /route` (a JSON body
 * of declared length within the limit, holding one valid question) is answered in Node's own
 * request and response objects, with the response the app gives (status 200, the JSON decision,
 * content type and `x-request-id`, and the same `request` log line): without the adapter's fetch
 * `Request` and `Response`, Hono's middleware chain, its body reader and zod. On the routing
 * endpoint, which is cheap in itself, those cost as much as a whole request to a bare Hono app
 * (a bare Node listener answers the bench's `/route` for about 0.7 of bare Hono's CPU). The body
 * is read once; whatever the fast path does not take as it is (another path or method, a chunked
 * or oversized body, not JSON, a question the app would refuse, a routing error, a request the
 * Host and Origin guard refuses) goes to the adapter, with the bytes already read, so every error
 * keeps the app's answer. Questions that arrive in the same turn of the event loop are routed one
 * after another before any is answered, which keeps routing's tables in the processor's caches.
 * Only for a server without CORS, rate limit or API key (those layers apply to `/route`).
 *
 * @example
 * createServer(requireHost(withFastRoute(getRequestListener(app.fetch), options)));
 */
export function withFastRoute(listener: NodeListener, options: FastRouteOptions): NodeListener {
  const now = options.now ?? performance.now.bind(performance);

  // Questions whose bodies arrived in one turn of the event loop are all routed, then all
  // answered: routing's tables and code stay in the processor's caches from one question to the
  // next, instead of being evicted by the HTTP work of each request in between (which made a route
  // cost two to three times as much in the server as in a loop). Writing an answer is part of
  // that work (a socket write runs the kernel's TCP path), so none is written until every
  // question of the turn is routed: answered one by one as routed, the sample server took 1.1
  // times the CPU a request (14 paired rounds).
  let waiting: Array<{ query: string; done: (text: string | undefined) => void }> = [];
  const routeWaiting = () => {
    const batch = waiting;
    waiting = [];
    const texts = batch.map(({ query }) => {
      try {
        return routeAnswerText(options.route(query));
      } catch {
        // The app routes it again and answers the error as it answers every error.
        return undefined;
      }
    });
    batch.forEach(({ done }, i) => done(texts[i]));
  };
  const routeSoon = (query: string, done: (text: string | undefined) => void) => {
    if (waiting.push({ query, done }) === 1) setImmediate(routeWaiting);
  };

  // The app answers with the body already read: the adapter makes its request from `rawBody`.
  const toApp = (incoming: ReadIncoming, outgoing: ServerResponse, body: Buffer) => {
    incoming.rawBody = body;
    listener(incoming, outgoing);
  };

  const answer = (
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    body: Buffer,
    started: number,
  ) => {
    // Bytes that are not UTF-8 go to the app, which answers 400 saying so.
    const text = utf8Text(body);
    const query = text === undefined ? undefined : plainRouteQuery(text);
    if (query === undefined) return toApp(incoming, outgoing, body);
    routeSoon(query, (decision) => {
      if (decision === undefined) return toApp(incoming, outgoing, body);
      const incomingId = incoming.headers[REQUEST_ID_HEADER];
      const requestId = requestIdFor(typeof incomingId === 'string' ? incomingId : undefined);
      // The headers the adapter writes for the app's answer, in one call (no header map).
      outgoing.writeHead(200, {
        'content-type': 'application/json',
        [REQUEST_ID_HEADER]: requestId,
        'content-length': Buffer.byteLength(decision),
      });
      outgoing.end(decision);
      logRequestWithId(options.logger, {
        request_id: requestId,
        method: 'POST',
        path: ROUTE_PATH,
        status: 200,
        ms: Math.round(now() - started),
      });
    });
  };

  return (incoming, outgoing) => {
    if (
      !isPlainRoutePost(incoming, options.maxBodyBytes) ||
      options.refuses({
        method: 'POST',
        path: ROUTE_PATH,
        host: incoming.headers.host as string,
        origin: incoming.headers.origin,
      })
    )
      return listener(incoming, outgoing);
    const started = now();
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () =>
      answer(incoming, outgoing, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), started),
    );
    // The client went away mid-body. Handed to the app, the adapter found the stream already
    // read and threw "Body is unusable", logged as an internal error with its stack for every
    // client that hung up; nobody reads an answer, so the lines the app writes for a client gone
    // are written here (its `aborted` status).
    incoming.on('close', () => {
      if (incoming.complete) return;
      const incomingId = incoming.headers[REQUEST_ID_HEADER];
      const requestId = requestIdFor(typeof incomingId === 'string' ? incomingId : undefined);
      const line = { request_id: requestId, method: 'POST', path: ROUTE_PATH };
      options.logger.info('client_disconnected', line);
      logRequestWithId(options.logger, {
        ...line,
        status: apiError('aborted', '').status,
        ms: Math.round(now() - started),
      });
    });
  };
}
