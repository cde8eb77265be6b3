import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import type { BenchOptions } from './options.js';
import { percentile, ratio, round } from './stats.js';
import { benchDatabaseUrl, withScratchSchema } from './scratch-schema.js';

const ROOT = resolve(import.meta.dirname, '..');
const CONNECTIONS = 50;
/** Seconds of load on each server before an endpoint is measured. */
const WARM_UP_SECONDS = 3;
/**
 * The questions the POSTs cycle through, the same for both servers: the 80 routing questions of
 * `eval/routing-tune-extra.jsonl` (a tuning set, never a held-out one), every agent and kind of
 * question, so routing is measured on varied text rather than on a handful of questions whose
 * words every cache has already seen (a five-question list routed 2-3x faster than these).
 */
const QUESTIONS = readFileSync(join(ROOT, 'eval/routing-tune-extra.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => (JSON.parse(line) as { query: string }).query);

/** A server in its own process, so its memory is its own and the load generator's is not in it. */
interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resident and peak resident memory of the server process, in MB (Linux /proc). */
  memory(): { rss: number; peak: number };
  /** CPU time the server process has used so far (user + system), in µs (Linux /proc). */
  cpuMicros(): number;
  stop(): Promise<void>;
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * Starts `args` with node and waits for the first line of its stdout holding a URL (the server
 * scripts print only that; `cohort serve` prints it in a sentence).
 */
async function startProcess(args: string[], env?: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env ? { env } : {}),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((found, failed) => {
    lines.on('line', (line) => {
      const url = /https?:\/\/[^\s/]+/.exec(line)?.[0];
      if (url) found(url);
    });
    child.once('exit', (code) =>
      failed(new Error(`${args.join(' ')} exited (${code}): ${stderr}`)),
    );
  });
  const field = (name: string) => {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
    return round(kb / 1024, 1);
  };
  return {
    url,
    child,
    memory: () => ({ rss: field('VmRSS'), peak: field('VmHWM') }),
    cpuMicros: () => {
      // Fields after the command name: state is the 1st, utime the 12th and stime the 13th.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
    },
    stop: () =>
      new Promise((stopped) => {
        child.once('exit', () => stopped());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Load on one server's endpoint, 50 connections; POSTs cycle through the questions. Besides the
 * throughput, the server's CPU time per request: on a machine other work is also using, it moves
 * much less than requests per second do, since time spent waiting for a core is not in it.
 */
async function load(server: ServerProcess, method: 'GET' | 'POST', path: string, duration: number) {
  const cpuBefore = server.cpuMicros();
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration,
    requests:
      method === 'GET'
        ? [{ method, path }]
        : QUESTIONS.map((query) => ({
            method,
            path,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query }),
          })),
  });
  return {
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
    cpuMicrosPerRequest: round(
      (server.cpuMicros() - cpuBefore) / Math.max(1, result.requests.total),
      1,
    ),
  };
}

/** The environment of a server answering extractively (no model) from the store at `dataDir`. */
function extractiveEnv(dataDir: string): NodeJS.ProcessEnv {
  return { ...process.env, COHORT_DATA_DIR: dataDir, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
}

/**
 * `cohort serve` as a user runs it (the CLI, extractive), started `starts` times on the store
 * `env` names, each start measured after the same load as the in-memory server (`/route` then
 * `/chat`): resident memory at start, after the load, and at the peak (which includes the
 * start itself, ingestion on a first start).
 */
async function serveFigures(
  label: string,
  env: NodeJS.ProcessEnv,
  starts: readonly string[],
  duration: number,
): Promise<Record<string, number | string>> {
  const args = [join(ROOT, 'bin/cohort.js'), 'serve', '--port', '0', '--host', '127.0.0.1'];
  const figures: Record<string, number | string> = {};
  for (const start of starts) {
    const serve = await startProcess(args, env);
    try {
      const name = `\`cohort serve\` on ${label}${start ? `, ${start} start` : ''}`;
      figures[`${name}: rss at start MB`] = serve.memory().rss;
      await load(serve, 'POST', '/route', duration);
      const chat = await load(serve, 'POST', '/chat', duration);
      figures[`${name}: /chat req/s`] = chat.rps;
      const memory = serve.memory();
      figures[`${name}: rss after load MB`] = memory.rss;
      figures[`${name}: peak rss MB (≤ 250 wanted)`] = memory.peak;
    } finally {
      await serve.stop();
    }
  }
  return figures;
}

/**
 * What a user's `cohort serve` holds in memory: the CLI over a store folder. The first start
 * ingests the sample book into the new folder (and builds and saves the index and the router);
 * the second, as every later start, opens the ingested folder and loads what was saved.
 */
async function folderServe(duration: number): Promise<Record<string, number | string>> {
  const root = mkdtempSync(join(tmpdir(), 'cohort-bench-serve-'));
  try {
    return await serveFigures(
      'a folder',
      extractiveEnv(join(root, 'store')),
      ['first', 'later'],
      duration,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * `cohort serve` on PostgreSQL, when `COHORT_BENCH_DATABASE_URL` (or `COHORT_TEST_DATABASE_URL`)
 * names a server: in a fresh schema (the first start ingests the sample book), dropped afterwards.
 * The store is then another process's memory, so the server holds no database engine.
 */
async function postgresServe(duration: number): Promise<Record<string, number | string>> {
  const url = benchDatabaseUrl();
  if (!url) return { '`cohort serve` on PostgreSQL': 'skipped: set COHORT_BENCH_DATABASE_URL' };
  return withScratchSchema(url, 'bench_serve', (schemaUrl) =>
    serveFigures(
      'PostgreSQL',
      { ...extractiveEnv(join(tmpdir(), 'cohort-bench-unused')), DATABASE_URL: schemaUrl },
      ['first', 'later'],
      duration,
    ),
  );
}

/** The median of a list of numbers (the lower middle one of an even count). */
const median = (values: readonly number[]) => percentile(values, 50);

/**
 * One endpoint on several servers, measured in rounds: each server is loaded for `seconds` in
 * turn, the order reversed every round (so a burst of load from elsewhere on the machine, or a
 * slow drift, falls on all of them alike), and the figures are the medians over the rounds. The
 * ratio of cohort to the ceiling is the median of the per-round ratios, each taken from two loads
 * a few seconds apart, which moves much less than the ratio of one load each.
 */
async function measureRounds(
  servers: readonly ServerProcess[],
  method: 'GET' | 'POST',
  path: string,
  rounds: number,
  seconds: number,
) {
  const results: Awaited<ReturnType<typeof load>>[][] = servers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = servers.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order)
      results[index]!.push(await load(servers[index]!, method, path, seconds));
  }
  return results.map((runs) => ({
    runs,
    rps: median(runs.map((run) => run.rps)),
    cpuMicrosPerRequest: median(runs.map((run) => run.cpuMicrosPerRequest)),
    p99: median(runs.map((run) => run.p99)),
    failed: runs.reduce((sum, run) => sum + run.failed, 0),
  }));
}

/**
 * HTTP throughput on loopback with autocannon at 50 connections, cohort's server (sample book,
 * in-memory store, extractive mode) beside a bare Hono app on @hono/node-server, each in its own
 * process, measured in the same rounds: `GET /healthz`, `POST /route` (also on cohort's server
 * with routing left out, which tells the server's own cost from routing's) and (cohort only)
 * `POST /chat`; medians of requests per second, p99 latency and each server's CPU time per
 * request, the ratios to the ceiling, and each server's RSS; then the RSS of `cohort serve` on a
 * store folder.
 */
export async function benchServer(options: BenchOptions): Promise<Record<string, number | string>> {
  const cohortScript = join(ROOT, 'bench/servers/cohort-sample.mjs');
  if (!existsSync(join(ROOT, 'dist/server/index.js')))
    return { skipped: 'run `npm run build` first' };
  const duration = options.quick ? 3 : 8;
  const rounds = options.quick ? 3 : 5;
  const roundSeconds = options.quick ? 2 : 3;
  const figures: Record<string, number | string> = {
    connections: CONNECTIONS,
    'rounds × seconds per server and endpoint (medians below)': `${rounds} × ${roundSeconds}`,
    'questions cycled (POST)': QUESTIONS.length,
  };
  const bare = await startProcess([join(ROOT, 'bench/servers/bare-hono.mjs')]);
  const cohort = await startProcess([cohortScript]);
  const fixedRoute = await startProcess([join(ROOT, 'bench/servers/cohort-fixed-route.mjs')]);
  try {
    figures['cohort rss at start MB'] = cohort.memory().rss;
    figures['bare Hono rss at start MB'] = bare.memory().rss;
    for (const [method, path] of [
      ['GET', '/healthz'],
      ['POST', '/route'],
    ] as const) {
      // Routing left out only matters where there is routing.
      const servers = path === '/route' ? [cohort, bare, fixedRoute] : [cohort, bare];
      // Load on each first, so all are measured warm (their hot code compiled) rather than one
      // of them while it is still starting: cohort's server serves a few times more requests per
      // second after a few seconds of load than in its first second.
      for (const server of servers) await load(server, method, path, WARM_UP_SECONDS);
      const [ours, ceiling, fixed] = await measureRounds(
        servers,
        method,
        path,
        rounds,
        roundSeconds,
      );
      const paired = ours!.runs.map((run, index) => ratio(run.rps, ceiling!.runs[index]!.rps));
      figures[`${method} ${path} cohort req/s`] = ours!.rps;
      figures[`${method} ${path} bare Hono req/s`] = ceiling!.rps;
      figures[`${method} ${path} ratio (≥ ${path === '/healthz' ? 0.6 : 0.5} wanted)`] =
        median(paired);
      figures[`${method} ${path} ratio per round`] = paired.join(' ');
      figures[`${method} ${path} CPU µs per request cohort / Hono`] =
        `${ours!.cpuMicrosPerRequest} / ${ceiling!.cpuMicrosPerRequest}`;
      figures[`${method} ${path} CPU ratio Hono / cohort`] = ratio(
        ceiling!.cpuMicrosPerRequest,
        ours!.cpuMicrosPerRequest,
      );
      figures[`${method} ${path} p99 ms cohort / Hono`] = `${ours!.p99} / ${ceiling!.p99}`;
      if (fixed) {
        const pairedFixed = fixed.runs.map((run, index) =>
          ratio(run.rps, ceiling!.runs[index]!.rps),
        );
        figures[`${method} ${path} routing left out: req/s, ratio`] =
          `${fixed.rps}, ${median(pairedFixed)}`;
        figures[`${method} ${path} routing left out: CPU µs per request`] =
          fixed.cpuMicrosPerRequest;
      }
      figures[`${method} ${path} failed`] = ours!.failed + ceiling!.failed + (fixed?.failed ?? 0);
    }
    const chat = await load(cohort, 'POST', '/chat', duration);
    figures['POST /chat cohort req/s'] = chat.rps;
    figures['POST /chat CPU µs per request'] = chat.cpuMicrosPerRequest;
    figures['POST /chat p99 ms'] = chat.p99;
    figures['POST /chat failed'] = chat.failed;
    const memory = cohort.memory();
    figures['cohort (memory://) rss after load MB'] = memory.rss;
    figures['cohort (memory://) peak rss MB (≤ 250 wanted)'] = memory.peak;
    figures['bare Hono peak rss MB'] = bare.memory().peak;
  } finally {
    await Promise.all([cohort.stop(), bare.stop(), fixedRoute.stop()]);
  }
  return {
    ...figures,
    ...(await folderServe(duration)),
    ...(await postgresServe(duration)),
  };
}
