import { apiError, type ApiError } from './api-error.js';

/** Methods that change nothing: a foreign `Origin` on them is left to CORS (the browser). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths whose every method is guarded against foreign origins (the MCP spec requires it). */
const ORIGIN_CHECKED_PATHS = new Set(['/mcp']);

/** Options of {@link requestGuard}: the server settings it reads. */
export interface RequestGuardOptions {
  /** The address the server listens on (`server.host`). */
  listenHost: string;
  /** `server.allowedHosts`: more names to answer to (`*`: any), lower case. */
  allowedHosts: readonly string[];
  /** `server.corsOrigins`: origins whose pages may call the API (`*`: any). */
  corsOrigins: readonly string[];
}

/** What a request says about where it comes from. */
export interface RequestSource {
  method: string;
  path: string;
  /** The `Host` header (or, without one, the host of the request's URL). */
  host: string;
  /** The `Origin` header, when the request has one (browsers send it). */
  origin: string | undefined;
}

/**
 * True when `host` (a `server.host` value) is a loopback address or name: a server listening
 * there is reachable only from this machine, so a request naming another host came through a
 * name that resolved here, which is what a DNS-rebinding web page does.
 *
 * @example
 * isLoopbackHost('127.0.0.1'); // true
 * isLoopbackHost('0.0.0.0'); // false
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return (
    name === 'localhost' ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/**
 * The host a request is for. A request whose target is in absolute form (`GET
 * http://other.host/healthz HTTP/1.1`, the form clients send to proxies) names its host there, and
 * RFC 9112 § 3.2.2 has an origin server use that host and ignore `Host`; @hono/node-server builds
 * the request's URL from it too. The guard read `Host` alone, so such a request was checked for one
 * host and routed as another's. Otherwise: the `Host` header, or without one the URL's host.
 *
 * @example
 * requestedHost('http://other.host/healthz', 'localhost', 'http://other.host/healthz'); // 'other.host'
 * requestedHost('/healthz', 'localhost:8787', 'http://localhost:8787/healthz'); // 'localhost:8787'
 */
export function requestedHost(
  target: string | undefined,
  host: string | undefined,
  url: string,
): string {
  // As the adapter tells the forms apart: a target that starts with the scheme.
  if (target !== undefined && (target.startsWith('http://') || target.startsWith('https://')))
    return new URL(target).host;
  return host ?? new URL(url).host;
}

/** A `Host` value split into its name (lower case, without a final dot) and port, if any. */
function splitHost(host: string): { name: string; port: string | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  if (!match?.[1]) return undefined;
  return { name: match[1].toLowerCase().replace(/\.$/, ''), port: match[2] };
}

/**
 * Guards the server against web pages that are not its own, as the MCP specification asks of
 * servers (and as a server with no API key needs, since `/code` runs tools on the host):
 *
 * - when the server listens on a loopback address, a request whose `Host` is not a loopback name
 *   (`localhost`, `127.0.0.1`, `[::1]`, any port), the listening address or one of
 *   `server.allowedHosts` is refused: a page that rebinds its own name to 127.0.0.1 sends its own
 *   name as `Host`;
 * - a request that changes something (any method but GET, HEAD and OPTIONS), and any request to
 *   `/mcp`, whose `Origin` is neither the server's own (the same host and port as `Host`), nor in
 *   `server.corsOrigins`, nor a name of `server.allowedHosts`, is refused: a page on another
 *   site may send it, even if the browser then hides the answer.
 *
 * A request without `Origin` (curl, SDKs, MCP hosts) is not a browser page's and passes the
 * second check. The guard answers `undefined` for a request it lets through, else the 403.
 *
 * @example
 * const guard = requestGuard({ listenHost: '127.0.0.1', allowedHosts: [], corsOrigins: [] });
 * guard({ method: 'POST', path: '/mcp', host: 'evil.example:8787', origin: undefined }); // 403
 */
export function requestGuard(
  options: RequestGuardOptions,
): (source: RequestSource) => ApiError | undefined {
  const anyHost = options.allowedHosts.includes('*');
  const checkHost = isLoopbackHost(options.listenHost) && !anyHost;
  const listening = splitHost(
    options.listenHost.includes(':') && !options.listenHost.startsWith('[')
      ? `[${options.listenHost}]`
      : options.listenHost,
  )?.name;
  const allowed = new Set(options.allowedHosts.map((name) => name.toLowerCase()));
  const anyOrigin = options.corsOrigins.includes('*');
  const corsOrigins = new Set(options.corsOrigins);

  const names = [...new Set(['localhost', '127.0.0.1', '[::1]', listening, ...allowed])]
    .filter((name): name is string => name !== undefined)
    .join(', ');
  const hostAllowed = (name: string) =>
    isLoopbackHost(name) || name === listening || allowed.has(name);

  // The last `Host` read, split, and whether it may be answered: a client sends the same one on
  // every request, and splitting and checking it (four expressions) was a sizeable part of a
  // `POST /route` answered on the fast path.
  let lastHost: string | undefined;
  let lastRequested: ReturnType<typeof splitHost>;
  let lastAllowed = false;

  return ({ method, path, host, origin }) => {
    if (host !== lastHost) {
      lastRequested = splitHost(host);
      lastAllowed = lastRequested !== undefined && hostAllowed(lastRequested.name);
      lastHost = host;
    }
    const requested = lastRequested;
    if (checkHost && !lastAllowed) {
      return apiError(
        'host_not_allowed',
        `This server listens on ${options.listenHost} and answers only to ${names}, not to the Host "${host.slice(0, 200)}": a web page whose name points here (DNS rebinding) could otherwise use it. To reach it by that name, add the name to server.allowedHosts in cohort.config.json or to COHORT_ALLOWED_HOSTS (comma-separated; "*" allows any).`,
        'host',
      );
    }
    if (origin === undefined || (SAFE_METHODS.has(method) && !ORIGIN_CHECKED_PATHS.has(path)))
      return undefined;
    if (anyOrigin || corsOrigins.has(origin) || (requested && sameOrigin(origin, requested)))
      return undefined;
    const from = originHost(origin);
    if (from && (anyHost || allowed.has(from.name))) return undefined;
    return apiError(
      'origin_not_allowed',
      `A page from the origin "${origin.slice(0, 200)}" may not call ${method} ${path}: only the server's own page and the origins of server.corsOrigins may. To allow that site, add its origin to server.corsOrigins in cohort.config.json or to COHORT_CORS_ORIGINS.`,
      'origin',
    );
  };
}

/** An `Origin`'s host name and port (the scheme's default when it names none), if it has one. */
function originHost(origin: string): { name: string; port: string } | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // `null` (a sandboxed page, a file) or not an origin at all.
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return {
    name: url.hostname.toLowerCase(),
    port: url.port || (url.protocol === 'https:' ? '443' : '80'),
  };
}

/**
 * True when `origin` is the server's own: the same host name and port as the request's `Host`.
 * The scheme is not compared, since a proxy in front may end TLS; a `Host` without a port has
 * the default port of the origin's scheme, as browsers leave it out.
 */
function sameOrigin(origin: string, host: { name: string; port: string | undefined }): boolean {
  const from = originHost(origin);
  if (!from) return false;
  const port = host.port ?? (origin.startsWith('https:') ? '443' : '80');
  return from.name === host.name && from.port === port;
}
