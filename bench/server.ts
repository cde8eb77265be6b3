import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import type { BenchOptions } from './options.js';
import { ratio, round } from './stats.js';

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
 * What a user's `cohort serve` holds in memory: the CLI over a store folder. The first start
 * ingests the sample book into the new folder (and builds and saves the index and the router);
 * the second, as every later start, opens the ingested folder and loads what was saved. Each is
 * measured after the same load as the in-memory server, `/route` then `/chat`.
 */
async function folderServe(duration: number): Promise<Record<string, number | string>> {
  const root = mkdtempSync(join(tmpdir(), 'cohort-bench-serve-'));
  const env = extractiveEnv(join(root, 'store'));
  const args = [join(ROOT, 'bin/cohort.js'), 'serve', '--port', '0', '--host', '127.0.0.1'];
  const figures: Record<string, number | string> = {};
  try {
    for (const start of ['first', 'later'] as const) {
      const serve = await startProcess(args, env);
      try {
        figures[`\`cohort serve\` on a folder, ${start} start: rss at start MB`] =
          serve.memory().rss;
        await load(serve, 'POST', '/route', duration);
        const chat = await load(serve, 'POST', '/chat', duration);
        figures[`\`cohort serve\` on a folder, ${start} start: /chat req/s`] = chat.rps;
        figures[`\`cohort serve\` on a folder, ${start} start: peak rss MB`] = serve.memory().peak;
      } finally {
        await serve.stop();
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return figures;
}

/**
 * HTTP throughput on loopback with autocannon at 50 connections, cohort's server (sample book,
 * in-memory store, extractive mode) beside a bare Hono app on @hono/node-server, each in its own
 * process, measured in the same run: `GET /healthz`, `POST /route` and (cohort only) `POST /chat`;
 * requests per second, p99 latency, each server's CPU time per request, the ratios to the
 * ceiling, and each server's RSS; then the RSS of `cohort serve` on a store folder.
 */
export async function benchServer(options: BenchOptions): Promise<Record<string, number | string>> {
  const cohortScript = join(ROOT, 'bench/servers/cohort-sample.mjs');
  if (!existsSync(join(ROOT, 'dist/server/index.js')))
    return { skipped: 'run `npm run build` first' };
  const duration = options.quick ? 3 : 8;
  const figures: Record<string, number | string> = {
    connections: CONNECTIONS,
    'seconds per load': duration,
    'questions cycled (POST)': QUESTIONS.length,
  };
  const bare = await startProcess([join(ROOT, 'bench/servers/bare-hono.mjs')]);
  const cohort = await startProcess([cohortScript]);
  try {
    figures['cohort rss at start MB'] = cohort.memory().rss;
    figures['bare Hono rss at start MB'] = bare.memory().rss;
    for (const [method, path] of [
      ['GET', '/healthz'],
      ['POST', '/route'],
    ] as const) {
      // Load on each first, so both are measured warm (their hot code compiled) rather than one
      // of them while it is still starting: cohort's server serves a few times more requests per
      // second after a few seconds of load than in its first second.
      await load(cohort, method, path, WARM_UP_SECONDS);
      await load(bare, method, path, WARM_UP_SECONDS);
      // Alternate the two so a burst of load from elsewhere on the machine hits both alike.
      const ours = await load(cohort, method, path, duration);
      const ceiling = await load(bare, method, path, duration);
      figures[`${method} ${path} cohort req/s`] = ours.rps;
      figures[`${method} ${path} bare Hono req/s`] = ceiling.rps;
      figures[`${method} ${path} ratio (≥ ${path === '/healthz' ? 0.6 : 0.5} wanted)`] = ratio(
        ours.rps,
        ceiling.rps,
      );
      figures[`${method} ${path} CPU µs per request cohort / Hono`] =
        `${ours.cpuMicrosPerRequest} / ${ceiling.cpuMicrosPerRequest}`;
      figures[`${method} ${path} CPU ratio Hono / cohort`] = ratio(
        ceiling.cpuMicrosPerRequest,
        ours.cpuMicrosPerRequest,
      );
      figures[`${method} ${path} p99 ms cohort / Hono`] = `${ours.p99} / ${ceiling.p99}`;
      figures[`${method} ${path} failed`] = ours.failed + ceiling.failed;
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
    await Promise.all([cohort.stop(), bare.stop()]);
  }
  return { ...figures, ...(await folderServe(duration)) };
}
