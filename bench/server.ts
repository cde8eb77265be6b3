import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import type { BenchOptions } from './options.js';
import { ratio, round } from './stats.js';

const ROOT = resolve(import.meta.dirname, '..');
const CONNECTIONS = 50;
/** Seconds of load on each server before an endpoint is measured. */
const WARM_UP_SECONDS = 3;
const QUESTIONS = [
  'What is a ROS 2 topic?',
  'Which GPU does the workstation need?',
  'What are the capstone milestones?',
  'What does Module 3 cover?',
  'How do I install ROS 2 Humble?',
];

/** A server in its own process, so its memory is its own and the load generator's is not in it. */
interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resident and peak resident memory of the server process, in MB (Linux /proc). */
  memory(): { rss: number; peak: number };
  stop(): Promise<void>;
}

async function startProcess(script: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, [script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((found, failed) => {
    lines.once('line', found);
    child.once('exit', (code) => failed(new Error(`${script} exited (${code}): ${stderr}`)));
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
    stop: () =>
      new Promise((stopped) => {
        child.once('exit', () => stopped());
        child.kill('SIGTERM');
      }),
  };
}

/** Load on one endpoint, 50 connections; POSTs cycle through the questions. */
async function load(url: string, method: 'GET' | 'POST', path: string, duration: number) {
  const result = await autocannon({
    url,
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
  };
}

/**
 * HTTP throughput on loopback with autocannon at 50 connections, cohort's server (sample book,
 * in-memory store, extractive mode) beside a bare Hono app on @hono/node-server, each in its own
 * process, measured in the same run: `GET /healthz`, `POST /route` and (cohort only) `POST /chat`;
 * requests per second, p99 latency, the ratio to the ceiling, and each server's RSS.
 */
export async function benchServer(options: BenchOptions): Promise<Record<string, number | string>> {
  const cohortScript = join(ROOT, 'bench/servers/cohort-sample.mjs');
  if (!existsSync(join(ROOT, 'dist/server/index.js')))
    return { skipped: 'run `npm run build` first' };
  const duration = options.quick ? 3 : 8;
  const figures: Record<string, number | string> = {
    connections: CONNECTIONS,
    'seconds per load': duration,
  };
  const bare = await startProcess(join(ROOT, 'bench/servers/bare-hono.mjs'));
  const cohort = await startProcess(cohortScript);
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
      await load(cohort.url, method, path, WARM_UP_SECONDS);
      await load(bare.url, method, path, WARM_UP_SECONDS);
      // Alternate the two so a burst of load from elsewhere on the machine hits both alike.
      const ours = await load(cohort.url, method, path, duration);
      const ceiling = await load(bare.url, method, path, duration);
      figures[`${method} ${path} cohort req/s`] = ours.rps;
      figures[`${method} ${path} bare Hono req/s`] = ceiling.rps;
      figures[`${method} ${path} ratio (≥ ${path === '/healthz' ? 0.6 : 0.5} wanted)`] = ratio(
        ours.rps,
        ceiling.rps,
      );
      figures[`${method} ${path} p99 ms cohort / Hono`] = `${ours.p99} / ${ceiling.p99}`;
      figures[`${method} ${path} failed`] = ours.failed + ceiling.failed;
    }
    const chat = await load(cohort.url, 'POST', '/chat', duration);
    figures['POST /chat cohort req/s'] = chat.rps;
    figures['POST /chat p99 ms'] = chat.p99;
    figures['POST /chat failed'] = chat.failed;
    const memory = cohort.memory();
    figures['cohort rss after load MB'] = memory.rss;
    figures['cohort peak rss MB (≤ 250 wanted)'] = memory.peak;
    figures['bare Hono peak rss MB'] = bare.memory().peak;
  } finally {
    await Promise.all([cohort.stop(), bare.stop()]);
  }
  return figures;
}
