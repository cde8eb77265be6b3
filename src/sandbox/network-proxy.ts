import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeDns, nodeHttp, nodeNet } from '../builtins/index.js';

/** The port the in-sandbox bridge listens on (inside the sandbox's own network namespace). */
export const SANDBOX_PROXY_PORT = 3128;

/**
 * True when `host` is allowed by `patterns`: an exact name, or `*.example.org` for its
 * subdomains (not the apex, as in Claude Code). Case-insensitive; a trailing dot is ignored.
 *
 * @example
 * hostAllowed('api.github.com', ['*.github.com']); // true
 * hostAllowed('evil.com', ['github.com']); // false
 */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');
  return patterns.some((pattern) => {
    const wanted = pattern.toLowerCase().replace(/\.$/, '');
    if (wanted.startsWith('*.'))
      return name.endsWith(wanted.slice(1)) && name.length > wanted.length - 1;
    return name === wanted;
  });
}

/** A running allow-list proxy, reachable through a Unix socket. */
export interface AllowListProxy {
  socketDir: string;
  socketPath: string;
  close(): Promise<void>;
}

const refuse = (socket: Socket, reason: string) => {
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n` +
      `cohort sandbox: ${reason}\n`,
  );
};
const notAllowed = (host: string) => `${host} is not in sandbox.allowedHosts`;

/** The TCP port a CONNECT target names (`host:443`), or undefined when it names none. */
function connectPort(text: string): number | undefined {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : 0;
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** Options of {@link startAllowListProxy}. */
export interface AllowListProxyOptions {
  /**
   * Resolves an allowed host to the address the proxy connects to. Pass one that refuses private
   * addresses (the tools' guarded lookup): an allowed name can resolve to 127.0.0.1 or 10.x (DNS
   * rebinding), and the allow-list checks names only. Defaults to the system resolver.
   */
  lookup?: LookupFunction;
}

/** The one address `host` is reached at, through `lookup`: the connection is pinned to it. */
function resolveTarget(lookup: LookupFunction, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: false }, (error, address) => {
      if (error) reject(error);
      else if (typeof address === 'string' && address) resolve(address);
      else reject(new Error(`${host} has no address`));
    });
  });
}

/**
 * Starts an HTTP proxy on a Unix socket that lets through only hosts in `allowedHosts`: `CONNECT`
 * (HTTPS) and plain requests with an absolute URL. The sandbox has no network of its own; a bridge
 * inside it ({@link PROXY_BRIDGE_SOURCE}) forwards 127.0.0.1:{@link SANDBOX_PROXY_PORT} to this socket.
 *
 * @example
 * const proxy = await startAllowListProxy(['registry.npmjs.org']);
 * await proxy.close();
 */
export async function startAllowListProxy(
  allowedHosts: readonly string[],
  options: AllowListProxyOptions = {},
): Promise<AllowListProxy> {
  const lookup = options.lookup ?? (nodeDns().lookup as LookupFunction);
  const socketDir = mkdtempSync(join(tmpdir(), 'cohort-proxy-'));
  const socketPath = join(socketDir, 'proxy.sock');
  const server = nodeHttp().createServer((req: IncomingMessage, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('cohort sandbox: proxy requests need an absolute URL\n');
      return;
    }
    if (target.protocol !== 'http:' || !hostAllowed(target.hostname, allowedHosts)) {
      res.writeHead(403).end(`cohort sandbox: ${notAllowed(target.hostname)}\n`);
      return;
    }
    resolveTarget(lookup, target.hostname.replace(/^\[|\]$/g, ''))
      .then((address) => {
        const upstream = nodeHttp().request(
          {
            protocol: 'http:',
            hostname: address,
            port: target.port || 80,
            path: target.pathname + target.search,
            method: req.method,
            headers: { ...req.headers, host: target.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', (error) => {
          if (!res.headersSent) res.writeHead(502);
          res.end(`cohort sandbox: ${error.message}\n`);
        });
        req.pipe(upstream);
      })
      // A refused address, or anything thrown setting the request up (never an unhandled
      // rejection, which would end cohort's process).
      .catch((error: Error) => {
        if (!res.headersSent) res.writeHead(403);
        res.end(`cohort sandbox: ${error.message}\n`);
      });
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host = '', portText = '443'] = (req.url ?? '').split(/:(?=\d*$)/);
    client.on('error', () => undefined);
    if (!hostAllowed(host, allowedHosts)) {
      refuse(client, notAllowed(host));
      return;
    }
    // The command's text: net.connect throws on a port past 65535, and thrown in the callback
    // below that was an unhandled rejection, which ends cohort's whole process.
    const port = connectPort(portText);
    if (port === undefined) {
      client.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n` +
          `cohort sandbox: "${portText}" is not a port from 1 to 65535\n`,
      );
      return;
    }
    resolveTarget(lookup, host.replace(/^\[|\]$/g, ''))
      .then((address) => {
        const upstream = nodeNet().connect(port, address, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
      })
      .catch((error: Error) => refuse(client, error.message));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    socketDir,
    socketPath,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(socketDir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/**
 * Node source run inside the sandbox (`node -e SOURCE socketPath port`): listens on
 * 127.0.0.1:port in the sandbox's own network namespace and pipes each connection to the proxy's
 * Unix socket, then marks itself ready in /tmp.
 */
export const PROXY_BRIDGE_SOURCE = String.raw`
const net = require('node:net');
const fs = require('node:fs');
const [socketPath, port] = process.argv.slice(1);
net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
}).listen(Number(port), '127.0.0.1', () => fs.writeFileSync('/tmp/.cohort-proxy-ready', ''));
`;
