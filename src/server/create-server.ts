import type { LanguageModelV3 } from '@ai-sdk/provider';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { OpenedAssistant } from '../assistant/index.js';
import { CohortConfig, packageVersion } from '../config/index.js';
import { mcpRoutes } from '../mcp/mcp-routes.js';
import { openCoding, type OpenedCoding } from '../coding/index.js';
import { openResearch, type OpenedResearch, type ResearchDependencies } from '../research/index.js';
import { createRetriever } from '../retrieval/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import { allowedMethods } from './allowed-methods.js';
import { apiError, errorBody, HttpError } from './api-error.js';
import { apiKeys, bearerAuth } from './bearer-auth.js';
import { bodySizeLimit } from './body-size-limit.js';
import { serverStopping } from './client-abort.js';
import { errorHandler } from './error-handler.js';
import { pathOf, withFastProbe, type AppFetch } from './fast-probe.js';
import { refuseUnknownQueryParameters } from './query-parameters.js';
import { withFastRoute, type NodeListener } from './fast-route.js';
import { requestedHost, requestGuard, type RequestSource } from './host-guard.js';
import { storeHealth } from './store-health.js';
import { rateLimit } from './rate-limit.js';
import { askedBy, requireRunAccess, requireSessionAccess } from './session-access.js';
import { REQUEST_ID_HEADER, requestContext } from './request-context.js';
import { chatRoutes } from './routes/chat-routes.js';
import { healthBody, metaRoutes } from './routes/meta-routes.js';
import { openAiRoutes } from './routes/openai-routes.js';
import { researchRoutes } from './routes/research-routes.js';
import { codeRoutes } from './routes/code-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { traceRoutes } from './routes/trace-routes.js';
import { webRoutes } from './routes/web-routes.js';
import type { ServerEnv } from './server-env.js';
import { loadWebAssets, type WebAssets } from './web-assets.js';

/** The server settings (`server` section of the config). */
export type ServerSettings = CohortConfig['server'];

/**
 * What the server serves: an opened assistant (`openAssistant`) or the same parts built by hand.
 * The config's other sections (research, retrieval, tools, model) build the research runs.
 */
export type ServedAssistant = Pick<OpenedAssistant, 'assistant' | 'store' | 'modeDescription'> & {
  config?: Pick<CohortConfig, 'server'> & Partial<CohortConfig>;
  /** Shared with research runs, so they search the same index instead of building another. */
  retriever?: OpenedAssistant['retriever'];
  /** The assistant's knowledge base, which research runs open on (else one over `store`). */
  knowledgeBase?: OpenedAssistant['knowledgeBase'];
};

/** Options of {@link createServer}; everything has a default. */
export interface ServerOptions {
  /** Overrides of the config's `server` section (port and host are for {@link startServer}). */
  server?: Partial<ServerSettings>;
  logger?: Logger;
  /** Clock for rate-limit windows, `created` timestamps and the age of the store's health. */
  now?: () => number;
  /** Who a request counts against for the rate limit (the remote address by default). */
  clientKey?: (c: Context<ServerEnv>) => string;
  /** Where the web page comes from (prebuilt `dist/web`, else bundled from source). */
  webAssets?: () => Promise<WebAssets>;
  version?: string;
  /**
   * The parts of `/research` runs (retriever, searches, model, run store). By default
   * `openResearch` builds them from the served config and knowledge base, on first use.
   */
  research?: ResearchDependencies;
  /**
   * The coding assistant of `/code`: the workspace it works on (default: the server's working
   * folder) and, for tests, a model in place of the configured provider.
   */
  coding?: { workspace?: string; model?: (ref: string) => LanguageModelV3 };
}

/** Paths that stay open without an API key and are not rate limited: the page and the probe. */
const PUBLIC_PATHS = new Set(['/', '/app.js', '/app.css', '/healthz']);

/** The server settings in force: the defaults, then the served config, then the options. */
export function serverSettings(served: ServedAssistant, options: ServerOptions): ServerSettings {
  return { ...CohortConfig.parse({}).server, ...served.config?.server, ...options.server };
}

/**
 * Builds the HTTP API and web page as a Hono app, without listening: test it with
 * `app.request(...)`, or serve it with {@link startServer}. Holds no state beyond the store (and
 * per-process rate-limit counts), so several processes can share one database.
 *
 * @example
 * const opened = await openAssistant({ config: loadConfig() });
 * const app = createServer(opened, { server: { apiKey: 'secret' } });
 * const res = await app.request('/agents', { headers: { authorization: 'Bearer secret' } });
 */
export function createServer(
  served: ServedAssistant,
  options: ServerOptions = {},
): Hono<ServerEnv> {
  return buildServer(served, options).app;
}

/**
 * {@link createServer}'s app with a `close` for what the app opened on first use (the research
 * agent and the MCP servers it started), so {@link startServer} can stop them on shutdown instead
 * of leaving their child processes to the process's exit, and the `fetch` to serve it with: the
 * app's, with `GET /healthz` answered without the middleware chain while the store is known good
 * (see `withFastProbe`), unless CORS is on (its middleware adds headers to the probe too), and the
 * Node `listener` around the adapter's: a plain `POST /route` is answered there (see
 * `withFastRoute`), unless CORS, a rate limit or an API key is on. The fast paths answer only
 * requests the Host and Origin guard (`requestGuard`) lets through.
 */
export function buildServer(
  served: ServedAssistant,
  options: ServerOptions = {},
): {
  app: Hono<ServerEnv>;
  fetch: AppFetch;
  /** The Node request listener to serve with, around the adapter's listener of `fetch`. */
  listener: (adapter: NodeListener) => NodeListener;
  close: () => Promise<void>;
  /** Stops the runs of open requests, which answer `shutting_down` (see `ServerEnv.stopping`). */
  stop: () => void;
} {
  const settings = serverSettings(served, options);
  const logger = options.logger ?? silentLogger;
  const { assistant, store } = served;
  const app = new Hono<ServerEnv>();
  // Every store check of the server goes through one health record: `/healthz` answers from it,
  // and a request that finds the store down flips it for the next probe.
  const health = storeHealth(() => store.ping(), options.now ? { now: options.now } : {});
  const ping = health.ping;

  app.use(requestContext(logger));
  const stopping = serverStopping();
  app.use((c, next) => {
    c.set('stopping', stopping.signal);
    return next();
  });
  // Before anything else answers: a page that is not the server's own gets nothing but the 403.
  const guard = requestGuard({
    listenHost: settings.host,
    allowedHosts: settings.allowedHosts,
    corsOrigins: settings.corsOrigins,
  });
  app.use(async (c, next) => {
    const refusal = guard({
      method: c.req.method,
      path: c.req.path,
      host: requestedHost(c.env?.incoming?.url, c.req.header('host'), c.req.url),
      origin: c.req.header('origin'),
    });
    if (refusal) throw new HttpError(refusal);
    return next();
  });
  if (settings.corsOrigins.length > 0) {
    app.use(
      cors({
        origin: settings.corsOrigins.includes('*') ? '*' : settings.corsOrigins,
        allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
        allowHeaders: ['Content-Type', 'Authorization', REQUEST_ID_HEADER],
        exposeHeaders: [REQUEST_ID_HEADER, 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining'],
        maxAge: 600,
      }),
    );
  }
  const limit = rateLimit({
    perMinute: settings.rateLimitPerMinute,
    ...(options.clientKey ? { clientKey: options.clientKey } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const auth = bearerAuth({ apiKey: settings.apiKey });
  // With neither a rate limit nor an API key there is nothing to check: no layer at all, rather
  // than three that pass every request on.
  const guarded = settings.rateLimitPerMinute > 0 || apiKeys(settings.apiKey).length > 0;
  if (guarded) {
    app.use(async (c, next) => {
      if (PUBLIC_PATHS.has(c.req.path)) return next();
      return limit(c, async () => {
        await auth(c, next);
      });
    });
  }
  app.use(
    bodySizeLimit({
      maxSize: settings.bodyLimitBytes,
      onError: (c) =>
        c.json(
          errorBody(
            apiError(
              'payload_too_large',
              `The request body is larger than ${settings.bodyLimitBytes} bytes (server.bodyLimitBytes).`,
            ),
          ),
          413,
        ),
    }),
  );

  const allowed = allowedMethods(app);
  app.use(refuseUnknownQueryParameters((path, method) => allowed(path).includes(method)));

  app.route('/', webRoutes(options.webAssets ?? (() => loadWebAssets())));
  app.route(
    '/',
    metaRoutes({
      assistant,
      store,
      health,
      modeDescription: served.modeDescription,
      version: () => options.version ?? packageVersion(),
    }),
  );
  app.route('/', chatRoutes({ assistant, store: { ping, sessions: store.sessions } }));
  app.route('/', sessionRoutes({ store }));
  app.route('/', traceRoutes({ store }));
  app.route(
    '/',
    openAiRoutes({
      assistant,
      store: { ping, sessions: store.sessions, meta: store.meta },
      ...(options.now ? { now: options.now } : {}),
    }),
  );
  let research: Promise<OpenedResearch> | undefined;
  // Research opens on the served knowledge base the way `cohort research` opens on its own.
  const openedResearch = () => {
    const config = { ...CohortConfig.parse({}), ...served.config };
    research ??= openResearch({
      config,
      knowledgeBase: served.knowledgeBase ?? {
        config,
        store,
        retriever: served.retriever ?? createRetriever(store),
        // The served store belongs to the server's owner, who closes it.
        close: async () => undefined,
      },
      logger,
      ...(options.research ? { dependencies: options.research } : {}),
    });
    // A failed opening is not cached: the next request tries again.
    research.catch(() => (research = undefined));
    return research;
  };
  app.route('/', researchRoutes({ research: openedResearch, store }));
  let coding: OpenedCoding | undefined;
  app.route(
    '/',
    codeRoutes({
      coding: () =>
        (coding ??= openCoding({
          config: { ...CohortConfig.parse({}), ...served.config },
          ...(options.coding?.model ? { model: options.coding.model } : {}),
        })),
      workspace: options.coding?.workspace ?? process.cwd(),
      store,
    }),
  );
  let retriever = served.retriever;
  let version = options.version;
  app.route(
    '/',
    mcpRoutes<ServerEnv>((c) => ({
      assistant,
      store,
      retriever: (retriever ??= createRetriever(store)),
      research: async () => (await openedResearch()).dependencies,
      version: (version ??= packageVersion()),
      // A session is the API key's that first used it, over MCP as over /chat.
      claimSession: (sessionId) => requireSessionAccess(c, store, sessionId, { claim: true }),
      // So is the trace of an answer without a session.
      ...askedBy(c),
      // A research run is the API key's that started it, over MCP as over /research.
      requireRun: (runId, access, refusal) => requireRunAccess(c, store, runId, access, refusal),
    })),
  );

  app.notFound((c) => {
    const methods = allowed(c.req.path);
    if (methods.length > 0) {
      c.header('Allow', methods.join(', '));
      return c.json(
        errorBody(
          apiError(
            'method_not_allowed',
            `${c.req.path} does not take ${c.req.method}; use ${methods.join(' or ')}. See /openapi.json for the API.`,
          ),
        ),
        405,
      );
    }
    const withoutSlash = c.req.path.replace(/\/+$/, '');
    const hint =
      withoutSlash !== c.req.path && withoutSlash !== '' && allowed(withoutSlash).length > 0
        ? ` (did you mean ${withoutSlash}, without the trailing slash?)`
        : '';
    return c.json(
      errorBody(
        apiError(
          'not_found',
          `No route ${c.req.method} ${c.req.path}${hint}. See /openapi.json for the API.`,
        ),
      ),
      404,
    );
  });
  app.onError(errorHandler({ ping }));
  const healthParts = { assistant, store, modeDescription: served.modeDescription };
  // The good answer's text, kept while the number of agents (the one part that can change) holds.
  let healthy: { agents: number; body: string } | undefined;
  const corsOn = settings.corsOrigins.length > 0;
  // `POST /route` goes through the rate limit and the API key when they are on, and CORS adds
  // headers to every answer: only a server with none of them answers it on the fast path, in
  // Node's request listener before the adapter makes a fetch request of it.
  const listener = (adapter: NodeListener): NodeListener =>
    corsOn || guarded
      ? adapter
      : withFastRoute(adapter, {
          route: (query) => assistant.route(query),
          maxBodyBytes: settings.bodyLimitBytes,
          logger,
          refuses: (source) => guard(source) !== undefined,
        });
  const fast = corsOn
    ? app.fetch
    : withFastProbe(app.fetch, {
        logger,
        answer: () => {
          const reachable = health.probe();
          // Unknown or down: the app's route waits for the ping (the same one, shared).
          if (reachable !== true) return undefined;
          const agents = assistant.agents().total;
          if (healthy?.agents !== agents) {
            healthy = { agents, body: JSON.stringify(healthBody(healthParts, true)) };
          }
          return { status: 200, body: healthy.body };
        },
      });
  // The fast paths answer only what the guard lets through; the app answers the rest (403).
  const fetch: AppFetch = (request, env, executionContext) => {
    const incoming = (env as ServerEnv['Bindings'] | undefined)?.incoming;
    if (!incoming) return app.fetch(request, env, executionContext);
    const source: RequestSource = {
      method: request.method,
      path: pathOf(request.url),
      host: requestedHost(incoming.url, incoming.headers.host, request.url),
      origin: incoming.headers.origin,
    };
    return guard(source)
      ? app.fetch(request, env, executionContext)
      : fast(request, env, executionContext);
  };
  const close = async () => {
    const opened = research;
    research = undefined;
    // A research agent that failed to open has nothing to close.
    const agent = await opened?.catch(() => undefined);
    await agent?.close();
  };
  return { app, fetch, listener, close, stop: () => stopping.abort() };
}
