import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CohortError } from '../errors/index.js';
import { silentLogger } from '../telemetry/index.js';
import {
  adapterErrorResponse,
  answerClientError,
  refuseConnect,
  refuseExpectation,
  refuseTransferCodings,
  requireHost,
} from './client-error.js';
import {
  buildServer,
  serverSettings,
  type ServedAssistant,
  type ServerOptions,
} from './create-server.js';
import { nodeHttp, nodeNet } from '../builtins/index.js';

/** How long requests stopped at shutdown have to write why before their connections are cut. */
const STOPPED_REQUESTS_GRACE_MS = 1_000;
/** How long shutdown waits for open requests before cutting them off. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * How long a client has to send a whole request (headers and body), in milliseconds: a client
 * that sends headers and part of a body, then stalls, gets 408 and its connection closed after
 * this, instead of holding a connection and a request slot for Node's default five minutes. It
 * bounds receiving the request only; a long streamed answer is not cut by it.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How long a client has to send the request headers (Node's default is 60 s). */
export const HEADERS_TIMEOUT_MS = 20_000;

/** Options of {@link startServer}. */
export interface StartServerOptions extends ServerOptions {
  /** Closed after the server stops (the store); `openAssistant`'s `close`. */
  close?: () => Promise<void>;
  /** Bound on waiting for open requests at shutdown. */
  shutdownTimeoutMs?: number;
  /** Stop gracefully on SIGINT/SIGTERM (default true). */
  handleSignals?: boolean;
  /** Bound on receiving one whole request ({@link REQUEST_TIMEOUT_MS}); tests shorten it. */
  requestTimeoutMs?: number;
}

/** A listening server. */
export interface RunningServer {
  /** `http://host:port`, with the port actually bound (useful with port 0). */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** Requests being served right now. */
  openRequests(): number;
  /**
   * Stops gracefully: no new connections, open requests finish (up to the bound), then the store
   * closes. Calling it again returns the same promise.
   */
  close(): Promise<void>;
  /** Resolves when the server has fully stopped (after `close` or a signal). */
  readonly closed: Promise<void>;
}

/** A listen failure a user can act on (port taken, not allowed), else the error itself. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'EADDRNOTAVAIL') {
    return new CohortError(
      'invalid_input',
      `Cannot listen on host "${host}": ${error.code === 'EADDRNOTAVAIL' ? 'no network interface of this machine has that address' : 'no such host name'}. Pass --host (or COHORT_HOST) an address of this machine, such as 127.0.0.1 or 0.0.0.0.`,
      { field: 'host', cause: error },
    );
  }
  if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') return error;
  return new CohortError(
    'conflict',
    `Cannot listen on ${host}:${port} (${error.code === 'EADDRINUSE' ? 'already in use' : 'permission denied'}). Pass --port or set PORT to another port.`,
    { field: 'port', cause: error },
  );
}

/**
 * Checks that `host:port` can be listened on, by listening and closing at once: `cohort serve`
 * calls it before the first-use ingestion, so a port already in use, or a host that is no address
 * of this machine, is reported in a moment, not after a minute of work that made a data folder.
 * Port 0 listens on any free port, so only the host is checked. Another process can still take
 * the port between this check and {@link startServer}, which then reports it the same way.
 *
 * @example
 * await assertPortFree('127.0.0.1', 8787); // throws CohortError('conflict') naming the port
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = nodeNet().createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, port)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * Starts the HTTP server and resolves once it listens. On SIGINT/SIGTERM (or `close()`) it stops
 * accepting connections, lets in-flight requests finish within `shutdownTimeoutMs`, then closes
 * the store.
 *
 * @example
 * const opened = await openAssistant({ config });
 * const running = await startServer(opened, { server: config.server, close: opened.close });
 * console.log(`Listening on ${running.url}`);
 */
export async function startServer(
  served: ServedAssistant,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const { fetch, listener: around, close: closeParts, stop } = buildServer(served, options);
  const { port, host } = serverSettings(served, options);
  const logger = options.logger ?? silentLogger;
  const bound = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeout);

  // The Node adapter loads when a server starts: `import('cohort')` does not pay for it.
  const { getRequestListener } = await import('@hono/node-server');
  // The adapter's listener on a server of our own (what its `serve` does), so that what Node and
  // the adapter refuse before the app sees a request is answered as the app answers errors.
  const listener = around(
    getRequestListener(fetch, {
      hostname: host,
      errorHandler: (error) => adapterErrorResponse(error, logger),
    }),
  );
  let open = 0;
  let drained: (() => void) | undefined;
  const server = await new Promise<Server>((resolve, reject) => {
    const created = nodeHttp().createServer(
      {
        requestTimeout,
        headersTimeout,
        // Node checks the two timeouts on this interval (30 s by default), so a stalled body
        // would otherwise be cut up to 30 s late.
        connectionsCheckingInterval: Math.min(1_000, requestTimeout),
        // Checked by `requireHost`, which answers in JSON; Node's own check answers with no body.
        requireHostHeader: false,
      },
      requireHost(refuseTransferCodings(listener)),
    );
    created.on(
      'clientError',
      answerClientError({
        requestTimeoutMs: requestTimeout,
        headersTimeoutMs: headersTimeout,
        logger,
      }),
    );
    created.on('connect', refuseConnect(logger));
    created.on('checkExpectation', refuseExpectation(logger));
    created.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, port)));
    created.listen(port, host, () => resolve(created));
  });
  // Counted per response, not per handler, so a streaming answer counts until its last byte.
  server.on('request', (_request, response) => {
    open += 1;
    response.once('close', () => {
      open -= 1;
      if (open === 0) drained?.();
    });
  });

  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));

  const onSignal = (signal: NodeJS.Signals) => {
    logger.info('shutdown', { signal, open_requests: open });
    void close();
  };
  if (options.handleSignals !== false) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }

  async function shutdown(): Promise<void> {
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (open > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (drained = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, bound))),
      ]);
      clearTimeout(timer);
      if (open > 0) {
        logger.warn('shutdown_cut_off', { open_requests: open, after_ms: bound });
        // Their runs stop, and streams write an `error` event saying so, before the cut.
        stop();
        await Promise.race([
          new Promise<void>((resolve) => (drained = resolve)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, STOPPED_REQUESTS_GRACE_MS))),
        ]);
        clearTimeout(timer);
      }
    }
    server.closeAllConnections();
    await stopped;
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await closeParts().catch((error: unknown) =>
      logger.warn('shutdown_close_failed', { part: 'research', error: String(error) }),
    );
    await options.close?.();
    logger.info('stopped');
    markClosed();
  }

  function close(): Promise<void> {
    closing ??= shutdown();
    return closing;
  }

  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    server,
    openRequests: () => open,
    close,
    closed,
  };
}
