import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../telemetry/index.js';
import { apiError, errorBody, toApiError, type ApiError } from './api-error.js';
import { REQUEST_ID_HEADER, requestIdFor } from './request-context.js';
import { nodeHttp } from '../builtins/index.js';

/** A request Node's HTTP parser refused, as the `clientError` event reports it. */
export interface ClientError extends Error {
  /** Node's code: `HPE_INVALID_CONTENT_LENGTH`, `HPE_HEADER_OVERFLOW`, `ERR_HTTP_REQUEST_TIMEOUT`… */
  code?: string;
  /** The parser's own words for a parse error ("Duplicate Content-Length"). */
  reason?: string;
}

/** What each of Node's parser codes means to a client, for codes that need more than "malformed". */
const PARSER_PROBLEMS: Record<string, string> = {
  HPE_INVALID_CONTENT_LENGTH:
    'The Content-Length header is not a valid length: send the body size in bytes, in decimal digits.',
  HPE_UNEXPECTED_CONTENT_LENGTH:
    'The request carries Content-Length more than once: send it once, with the body size in bytes.',
  HPE_INVALID_CHUNK_SIZE:
    'A chunk size of the chunked body is not valid: each chunk starts with its size in hexadecimal digits.',
  HPE_INVALID_TRANSFER_ENCODING:
    'The Transfer-Encoding header is not valid: send "chunked" or a Content-Length instead.',
  HPE_INVALID_METHOD: 'The request method is not a valid HTTP method.',
  HPE_INVALID_URL: 'The request target is not a valid URL path.',
  HPE_INVALID_VERSION: 'The HTTP version is not valid: send HTTP/1.1.',
  HPE_INVALID_HEADER_TOKEN: 'A header name or value holds characters HTTP does not allow.',
  HPE_INVALID_EOF_STATE: 'The connection ended in the middle of the request.',
};

/**
 * Node's parser reports Content-Length beside Transfer-Encoding under the code of whichever
 * header came second (`HPE_INVALID_CONTENT_LENGTH`, `HPE_INVALID_TRANSFER_ENCODING`); its
 * reason says which it was ("Transfer-Encoding can't be present with Content-Length").
 */
const BOTH_FRAMINGS = /can't be present with/;
const BOTH_FRAMINGS_PROBLEM =
  'The request carries both Content-Length and Transfer-Encoding: send one of them.';

/** The server's bounds on receiving a request: its headers, and the whole of it. */
export interface RequestTimeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
}

// Node reports both bounds as one ERR_HTTP_REQUEST_TIMEOUT, so a 408 names both when they differ:
// a client that sent nothing was cut at the headers' bound, and "within 30 s" misled it.
function timeoutWording({ requestTimeoutMs, headersTimeoutMs }: RequestTimeouts): string {
  const whole = requestTimeoutMs / 1000;
  if (headersTimeoutMs >= requestTimeoutMs)
    return `The whole request did not arrive within ${whole} s`;
  return `The request did not arrive in time (its headers are due within ${headersTimeoutMs / 1000} s, the whole request within ${whole} s)`;
}

/**
 * The API error for a request Node's HTTP parser refused, in the API's own terms: 431 when the
 * request line and headers pass Node's limit, 408 when the request did not arrive within
 * `requestTimeoutMs`, 413 for oversized chunk extensions, else 400 naming what was wrong when the
 * parser's code says it.
 *
 * @example
 * clientErrorAnswer({ name: 'Error', message: 'Parse Error', code: 'HPE_INVALID_CHUNK_SIZE' }, {
 *   requestTimeoutMs: 30_000,
 *   headersTimeoutMs: 20_000,
 * });
 * // { status: 400, code: 'bad_request', message: 'A chunk size of the chunked body is not valid: …' }
 */
export function clientErrorAnswer(error: ClientError, timeouts: RequestTimeouts): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return apiError(
        'headers_too_large',
        `The request line and headers are larger than the server takes (${nodeHttp().maxHeaderSize} bytes in all): send a shorter path or query, or fewer or smaller headers.`,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return apiError(
        'request_timeout',
        `${timeoutWording(timeouts)}: send the headers and all the bytes the Content-Length announces at once.`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return apiError(
        'payload_too_large',
        'The chunk extensions of the chunked body are too large: send chunks without extensions.',
      );
    default:
      return apiError(
        'bad_request',
        (BOTH_FRAMINGS.test(error.reason ?? '') ? BOTH_FRAMINGS_PROBLEM : undefined) ??
          (error.code && PARSER_PROBLEMS[error.code]) ??
          'The request is not valid HTTP/1.1 and cannot be read.',
      );
  }
}

/**
 * The full HTTP/1.1 response text of an API error sent straight on a socket: status line,
 * `Content-Type: application/json`, its length, `Connection: close`, `x-request-id` and any
 * `headers` given, then the `{ "error": { code, message, field } }` body every other error of the
 * API has.
 *
 * @example
 * socket.end(rawErrorResponse(apiError('bad_request', '…'), randomUUID()));
 */
export function rawErrorResponse(
  error: ApiError,
  requestId: string,
  headers: Record<string, string> = {},
): string {
  const body = JSON.stringify(errorBody(error));
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${error.status} ${nodeHttp().STATUS_CODES[error.status] ?? ''}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n' +
    `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
    extra +
    `\r\n${body}`
  );
}

/** The socket of a connection, with the response Node is writing on it, if any (Node's own field). */
interface HttpSocket extends Duplex {
  _httpMessage?: ServerResponse | null;
}

/**
 * A `clientError` listener for a Node HTTP server that answers a request Node's parser refused
 * the way the API answers every error: JSON, the right status, `Connection: close`. Node's own
 * answer is a status line with no body, which a client of a JSON API cannot read a reason from.
 * It writes nothing when the client is gone (`ECONNRESET`), the socket cannot be written, or a
 * response to this connection has already begun (a byte more would corrupt it), as Node does.
 *
 * @example
 * server.on('clientError', answerClientError({ requestTimeoutMs: 30_000, headersTimeoutMs: 20_000, logger }));
 */
export function answerClientError(
  options: RequestTimeouts & { logger: Logger },
): (error: ClientError, socket: Duplex) => void {
  const answerOn = (error: ClientError, socket: Duplex) => {
    const pending = (socket as HttpSocket)._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent === true) {
      socket.destroy();
      return;
    }
    // Bytes that are not HTTP right behind a whole request (pipelined, or a HEAD's body sent
    // without Content-Length) are refused while that request's answer is still being made: the
    // refusal waits for it, or the client would read the 400 as the answer to its request. An
    // error in the request's own body (a bad chunk size, a timeout) is that request's answer.
    if (pending && !pending.writableFinished && pending.req.complete) {
      const after = () => answerOn(error, socket);
      pending.once('finish', after);
      pending.once('close', () => {
        pending.removeListener('finish', after);
        if (!pending.writableFinished) socket.destroy();
      });
      return;
    }
    const answer = clientErrorAnswer(error, options);
    const requestId = requestIdFor(undefined);
    options.logger.child({ request_id: requestId }).info('client_error', {
      status: answer.status,
      code: answer.code,
      parser_code: error.code ?? null,
    });
    // Closed once the answer is flushed: the rest of what the client sends cannot be read.
    socket.end(rawErrorResponse(answer, requestId), () => socket.destroy());
  };
  return answerOn;
}

/** The methods the API takes on some path, for the `Allow` header of a refused `CONNECT`. */
const API_METHODS = 'GET, POST, DELETE, OPTIONS';

/**
 * A `connect` listener for a Node HTTP server: a `CONNECT` request (a proxy tunnel, which cohort
 * is not) gets the API's JSON 405 `method_not_allowed`, with `Allow` and `Connection: close`,
 * and the connection is closed. Without a listener Node destroys the socket and the client gets
 * no answer at all.
 *
 * @example
 * server.on('connect', refuseConnect(logger));
 */
export function refuseConnect(logger: Logger): (request: IncomingMessage, socket: Duplex) => void {
  return (_request, socket) => {
    const requestId = requestIdFor(undefined);
    const answer = apiError(
      'method_not_allowed',
      'The server does not take CONNECT: it is an HTTP API, not a proxy; use GET, POST, DELETE or OPTIONS on its paths. See /openapi.json for the API.',
    );
    logger.child({ request_id: requestId }).info('client_error', {
      status: answer.status,
      code: answer.code,
      method: 'CONNECT',
    });
    // A client that sends on after the request line (a tunnel's first bytes) is not read.
    socket.on('error', () => socket.destroy());
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(answer, requestId, { Allow: API_METHODS }), () => socket.destroy());
  };
}

/**
 * A `checkExpectation` listener for a Node HTTP server: a request whose `Expect` header is not
 * `100-continue` (the one expectation HTTP/1.1 defines) gets the API's JSON 417
 * `expectation_failed` naming the header, with `Connection: close` (its body is not read). Node's
 * own answer is a 417 with no body.
 *
 * @example
 * server.on('checkExpectation', refuseExpectation(logger));
 */
export function refuseExpectation(
  logger: Logger,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const requestId = requestIdFor(undefined);
    const expect = String(request.headers.expect ?? '').slice(0, 100);
    const answer = apiError(
      'expectation_failed',
      `The server cannot meet the Expect header "${expect}": it takes only "Expect: 100-continue", or none.`,
    );
    logger.child({ request_id: requestId }).info('client_error', {
      status: answer.status,
      code: answer.code,
    });
    endClosing(response, answer, requestId);
  };
}

/** Answers `error` in the API's JSON shape and closes the connection after it. */
function endClosing(response: ServerResponse, error: ApiError, requestId: string): void {
  const body = JSON.stringify(errorBody(error));
  response.shouldKeepAlive = false;
  response.writeHead(error.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
    [REQUEST_ID_HEADER]: requestId,
  });
  response.end(body);
}

/** How many lines of the header `name` (lower case) a request carries; raw headers alternate names and values. */
function headerLines(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const raw = rawHeaders[index] ?? '';
    if (raw.length === name.length && raw.toLowerCase() === name) count += 1;
  }
  return count;
}

/**
 * Wraps a Node request listener so that an HTTP/1.1 request without a `Host` header (which
 * RFC 9112 requires), or any request with more than one `Host` (RFC 9112 § 3.2) or more than one
 * `Content-Type`, is answered 400 in the API's JSON shape with `Connection: close`. Node's own
 * check (`requireHostHeader`) answers with no body, so the server turns it off and checks here;
 * HTTP/1.0 may leave `Host` out, as in Node.
 *
 * Why `Content-Type` too: it is one value (RFC 9110 § 8.3), and readers of two disagree. Node's
 * `headers` keeps the first and @hono/node-server joins them ("application/json, text/plain"), so
 * `POST /route` with JSON first was answered on the fast path while `POST /chat` with the same
 * headers was 415, even with both lines `application/json`; the Fetch standard takes the last.
 *
 * @example
 * createServer({ requireHostHeader: false }, requireHost(listener));
 */
export function requireHost(
  listener: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    // Node keeps the first of several Host headers; which one a check reads is then a guess.
    if (headerLines(request.rawHeaders, 'host') > 1) {
      const error = apiError(
        'bad_request',
        'The request has more than one Host header, which HTTP/1.1 forbids: send one "Host: <host>:<port>".',
        'host',
      );
      endClosing(response, error, requestIdFor(undefined));
      return;
    }
    if (headerLines(request.rawHeaders, 'content-type') > 1) {
      const error = apiError(
        'bad_request',
        'The request has more than one Content-Type header, and which one holds would be a guess: send one, "Content-Type: application/json" for a JSON body.',
        'content-type',
      );
      endClosing(response, error, requestIdFor(undefined));
      return;
    }
    if (
      request.headers.host !== undefined ||
      request.httpVersionMajor !== 1 ||
      request.httpVersionMinor !== 1
    ) {
      listener(request, response);
      return;
    }
    const error = apiError(
      'bad_request',
      'The request has no Host header, which HTTP/1.1 requires: send "Host: <host>:<port>".',
      'host',
    );
    endClosing(response, error, requestIdFor(undefined));
  };
}

/**
 * Wraps a Node request listener so that a request whose body is sent with a transfer coding other
 * than `chunked` alone (`Transfer-Encoding: gzip, chunked`, or `gzip` and `chunked` on two lines,
 * which Node joins) is answered 400 in the API's JSON shape with `Connection: close`. Node's
 * parser undoes only the chunking: the app read the still-compressed bytes as the JSON body (and
 * answered plain JSON sent so as if it were not compressed), while `Transfer-Encoding: gzip` alone
 * and `Content-Encoding: gzip` were refused.
 *
 * @example
 * createServer(options, requireHost(refuseTransferCodings(listener)));
 */
export function refuseTransferCodings(
  listener: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const coding = request.headers['transfer-encoding'];
    if (coding === undefined || coding.trim().toLowerCase() === 'chunked') {
      listener(request, response);
      return;
    }
    const error = apiError(
      'bad_request',
      `The body is sent with Transfer-Encoding "${coding.slice(0, 100)}": the server reads only "chunked" (or a Content-Length); send the body uncompressed.`,
    );
    endClosing(response, error, requestIdFor(undefined));
  };
}

/**
 * The answer to what @hono/node-server throws before the app sees a request (its
 * `errorHandler`): a `RequestError` (a path with a backslash, a Host header that is not a host, a
 * URL it cannot build) is 400 `bad_request` with the adapter's reason; anything else, thrown by
 * the app's `fetch` itself, is 500 `internal` and logged. The adapter's own answers have no body.
 *
 * @example
 * getRequestListener(fetch, { errorHandler: (error) => adapterErrorResponse(error, logger) });
 */
export function adapterErrorResponse(error: unknown, logger: Logger): Response {
  const requestId = requestIdFor(undefined);
  let answer: ApiError;
  // By name: importing the adapter's class here would load it with `import('cohort')`.
  if (error instanceof Error && error.name === 'RequestError') {
    answer = apiError('bad_request', `The request cannot be read: ${error.message}.`);
  } else {
    answer = toApiError(error);
    logger.child({ request_id: requestId }).error('request_failed', { error: String(error) });
  }
  return new Response(JSON.stringify(errorBody(answer)), {
    status: answer.status,
    headers: { 'content-type': 'application/json', [REQUEST_ID_HEADER]: requestId },
  });
}
