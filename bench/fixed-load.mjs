// A fixed amount of load on cohort's server, for memory figures that do not depend on how fast the
// machine is: `bench/run.ts server` loads for a number of seconds, so a busy machine serves fewer
// requests and its peak RSS is lower. This one sends a given number of requests per phase and
// prints the server's resident memory (VmRSS) and peak (VmHWM) after each, from /proc (Linux).
//
// Usage (after `npm run build`):
//   node bench/fixed-load.mjs route:5000,chat:2000,chat:2000 [--data-dir DIR] [-- NODE_FLAG…]
// Without --data-dir the server is the sample book's in `memory://` (bench/servers/cohort-sample.mjs);
// with it, `cohort serve` on that folder (its first start ingests the book). Node flags after `--`
// go to the server process. 50 connections (CONNECTIONS to change); POSTs cycle through the 80
// questions of eval/routing-tune-extra.jsonl, as the bench's do.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const nodeFlags = dashes >= 0 ? args.slice(dashes + 1) : [];
const own = dashes >= 0 ? args.slice(0, dashes) : args;
const dataDirAt = own.indexOf('--data-dir');
const dataDir = dataDirAt >= 0 ? own[dataDirAt + 1] : undefined;
const phases = own.find(
  (arg, i) => !arg.startsWith('--') && (dataDirAt < 0 || i !== dataDirAt + 1),
);
if (!phases) {
  console.error(
    'usage: node bench/fixed-load.mjs route:5000,chat:2000 [--data-dir DIR] [-- NODE_FLAG…]',
  );
  process.exit(2);
}

const QUESTIONS = readFileSync(join(ROOT, 'eval/routing-tune-extra.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line).query);

const server = dataDir
  ? [join(ROOT, 'bin/cohort.js'), 'serve', '--port', '0', '--host', '127.0.0.1']
  : [join(ROOT, 'bench/servers/cohort-sample.mjs')];
const child = spawn(process.execPath, [...nodeFlags, ...server], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: dataDir
    ? { ...process.env, COHORT_DATA_DIR: dataDir, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' }
    : process.env,
});
const url = await new Promise((found, failed) => {
  createInterface({ input: child.stdout }).on('line', (line) => {
    const match = /https?:\/\/[^\s/]+/.exec(line)?.[0];
    if (match) found(match);
  });
  child.once('exit', (code) => failed(new Error(`the server exited (${code}) before it listened`)));
});

const megabytes = (name) => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1]) / 102.4) / 10;
};
const memory = () => ({ rss: megabytes('VmRSS'), peak: megabytes('VmHWM') });
/** User + system CPU seconds of the server (fields 14 and 15 of /proc/<pid>/stat, in ticks). */
const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const figures = { start: memory() };
try {
  for (const [index, phase] of phases.split(',').entries()) {
    const [path, count] = phase.split(':');
    const amount = Number(count);
    const method = path === 'healthz' ? 'GET' : 'POST';
    const cpuBefore = cpuSeconds();
    const started = performance.now();
    const result = await autocannon({
      url,
      connections: Math.min(amount, Number(process.env.CONNECTIONS ?? 50)),
      amount,
      requests:
        method === 'GET'
          ? [{ method, path: `/${path}` }]
          : QUESTIONS.map((query) => ({
              method,
              path: `/${path}`,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ query }),
            })),
    });
    figures[`${index + 1}. ${path} × ${amount}`] = {
      ...memory(),
      rps: Math.round(amount / ((performance.now() - started) / 1000)),
      cpuMsPerRequest: Math.round(((cpuSeconds() - cpuBefore) * 1e6) / amount) / 1000,
      failed: result.non2xx + result.errors,
    };
  }
} finally {
  await new Promise((stopped) => {
    child.once('exit', stopped);
    child.kill('SIGTERM');
  });
}
console.log(JSON.stringify(figures));
