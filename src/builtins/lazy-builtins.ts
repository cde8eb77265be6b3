import { createRequire } from 'node:module';
import type * as ChildProcess from 'node:child_process';
import type * as Dns from 'node:dns';
import type * as DnsPromises from 'node:dns/promises';
import type * as Http from 'node:http';
import type * as Net from 'node:net';
import type * as V8 from 'node:v8';
import type * as WorkerThreads from 'node:worker_threads';

// Node's networking, process and worker modules, required on first use rather than imported:
// `import('cohort')` loads the modules that use them (the server, the sandbox, the embedded store)
// but calls none of them, and compiling these built-ins (they are not in Node's startup snapshot)
// was a twentieth of the import. Node caches a built-in, so each later call is a lookup.
const require = createRequire(import.meta.url);

/** `node:child_process`, for the sandbox, git and MCP servers. */
export const nodeChildProcess = (): typeof ChildProcess =>
  require('node:child_process') as typeof ChildProcess;

/** `node:dns`, for the network guard's and the sandbox proxy's lookups. */
export const nodeDns = (): typeof Dns => require('node:dns') as typeof Dns;

/** `node:dns/promises`, for the network guard's lookups. */
export const nodeDnsPromises = (): typeof DnsPromises =>
  require('node:dns/promises') as typeof DnsPromises;

/** `node:http`, for the server and the sandbox proxy. */
export const nodeHttp = (): typeof Http => require('node:http') as typeof Http;

/** `node:net`, for the server, the sandbox proxy and the network guard. */
export const nodeNet = (): typeof Net => require('node:net') as typeof Net;

/** `node:v8`, for the server's and the embedded store's heap flags. */
export const nodeV8 = (): typeof V8 => require('node:v8') as typeof V8;

/** `node:worker_threads`, for the embedded store's worker and the grep tool's matcher. */
export const nodeWorkerThreads = (): typeof WorkerThreads =>
  require('node:worker_threads') as typeof WorkerThreads;
