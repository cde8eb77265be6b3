// Fault drills against real cohort processes (npm run soak; not part of npm test). Prints each
// figure: fuzzed requests over every endpoint (5xx count), kill -9 during writes (acknowledged
// turns lost) on PGlite and on PostgreSQL, kill -9 during ingestion, a second process on a locked
// folder, 200 concurrent clients, concurrent turns of one session on PostgreSQL, and a real
// restart of a PostgreSQL server of the soak's own (initdb under /tmp, its own port) under load.
// Shared-database drills run when COHORT_SOAK_DATABASE_URL (or COHORT_TEST_DATABASE_URL) is set.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../src/store/index.js';
import { ensureTestCli } from '../src/test/cli-bundle.js';
import { startServeProcess } from '../src/test/serve-process.js';
import { startThrowawayPostgres, throwawayPostgresSkip } from '../src/test/throwaway-postgres.js';

const BIN = new URL('../bin/cohort.js', import.meta.url).pathname;
const PG_URL = process.env.COHORT_SOAK_DATABASE_URL ?? process.env.COHORT_TEST_DATABASE_URL;
const env = (extra: Record<string, string>) => {
  const base: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(OPENAI_|DATABASE_URL|COHORT_)/.test(key)) base[key] = value;
  }
  return { ...base, COHORT_LOG_LEVEL: 'warn', ...extra };
};
// Every folder of a soak run lives under one, removed when the run ends however it ends.
const soakRoot = mkdtempSync(join(tmpdir(), 'cohort-soak-'));
process.once('exit', () => rmSync(soakRoot, { recursive: true, force: true }));
const folder = () => mkdtempSync(join(soakRoot, 'run-'));
// The restart drill starts cohort from the sources' bundle, as the tests do.
await ensureTestCli(soakRoot);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function serve(extra: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: env(extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving the book assistant on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err.slice(-400)}`)));
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

async function post(url: string, path: string, body: unknown, raw?: string) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ?? JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text };
}

/**
 * A POST through node:http on kept-alive connections: the load drill's 200 clients run on the
 * server's machine, and `fetch` (undici's streams) cost them about as much CPU per request as
 * a third of the server's own work, which the server then did not get.
 */
function postOn(agent: Agent, url: string, path: string, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url + path,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(payload);
  });
}

/** A fresh PostgreSQL schema of its own, as a DATABASE_URL. */
async function pgSchemaUrl(): Promise<string> {
  const schema = `soak_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return `${PG_URL}${PG_URL?.includes('?') ? '&' : '?'}options=-csearch_path%3D${schema}`;
}

// ---- 1. fuzzing -------------------------------------------------------------------------------
const QUESTIONS = [
  'What is a ROS 2 topic?',
  'Which GPU does the Jetson use?',
  'capstone milestones',
];
function fuzzBody(i: number): { path: string; raw: string; method: string } {
  const pick = <T>(list: readonly T[]) => list[i % list.length] as T;
  const depth = 50 + (i % 5000);
  const hostile = [
    () => `{"query": ${'['.repeat(depth)}1${']'.repeat(depth)}}`,
    () => JSON.stringify({ query: `${pick(QUESTIONS)}\u0000` }),
    () => `{"query": "topic \\ud800 alone"}`,
    () => JSON.stringify({ query: 'x'.repeat(3000) }),
    () => JSON.stringify({ query: 42, session_id: 'nope' }),
    () => '{"query": "unterminated',
    () => JSON.stringify({ query: pick(QUESTIONS), session_id: randomUUID() }),
    () => JSON.stringify({ query: pick(QUESTIONS), agent: 'no-such-agent' }),
    () => JSON.stringify({ question: pick(QUESTIONS), tasks: -1 }),
    () =>
      JSON.stringify({
        model: 'cohort',
        user: `u${i}`,
        messages: [{ role: 'user', content: pick(QUESTIONS) }],
      }),
    () => JSON.stringify({ model: 'cohort', messages: [{ role: 'user', content: `\u0000` }] }),
    () => JSON.stringify({ model: 'cohort', messages: 'not a list' }),
    () => String.fromCharCode(...Array.from({ length: 64 }, (_, k) => (i * 31 + k * 7) % 256)),
    () => JSON.stringify({ ['k'.repeat(i % 200)]: { a: [null, true, 1e308, -0] } }),
  ];
  const paths = [
    '/chat',
    '/chat/stream',
    '/route',
    '/v1/chat/completions',
    '/research',
    '/code',
    '/mcp',
  ];
  return {
    path: pick(paths),
    raw: (hostile[(i * 7) % hostile.length] as () => string)(),
    method: 'POST',
  };
}

async function fuzz(
  url: string,
  total: number,
): Promise<{ sent: number; fiveXX: number; statuses: Record<number, number> }> {
  const statuses: Record<number, number> = {};
  let fiveXX = 0;
  let next = 0;
  const gets = [
    '/',
    '/healthz',
    '/agents',
    '/openapi.json',
    '/v1/models',
    `/sessions/${randomUUID()}/messages`,
    '/sessions/not-a-uuid/messages',
    '/nope',
    '/sessions/%00/messages',
  ];
  const worker = async () => {
    while (next < total) {
      const i = next++;
      let status: number;
      try {
        if (i % 5 === 0) {
          const path = gets[i % gets.length] as string;
          const res = await fetch(url + path, {
            method: i % 10 === 0 && path.startsWith('/sessions') ? 'DELETE' : 'GET',
          });
          await res.arrayBuffer();
          status = res.status;
        } else {
          const body = fuzzBody(i);
          const res = await fetch(url + body.path, {
            method: 'POST',
            headers: { 'content-type': i % 13 === 0 ? 'text/plain' : 'application/json' },
            body: body.raw,
          });
          await res.arrayBuffer();
          status = res.status;
        }
      } catch {
        status = 599;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 500) fiveXX++;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return { sent: total, fiveXX, statuses };
}

// ---- 2. kill -9 during writes -----------------------------------------------------------------
async function killDuringWrites(
  extra: Record<string, string>,
  reopen: () => Promise<Awaited<ReturnType<typeof openStore>>>,
) {
  const { url, child } = await serve(extra);
  const acknowledged: { session: string; query: string }[] = [];
  let stop = false;
  const writer = async (n: number) => {
    for (let k = 0; !stop; k++) {
      const session = randomUUID();
      const query = `${QUESTIONS[(n + k) % QUESTIONS.length]} (${n}.${k})`;
      try {
        const res = await post(url, '/chat', { query, session_id: session });
        if (res.status === 200) acknowledged.push({ session, query });
      } catch {
        return;
      }
    }
  };
  const writers = Array.from({ length: 8 }, (_, n) => writer(n));
  // Killed mid-traffic: once turns are being acknowledged, at a random moment after that.
  const deadline = performance.now() + 60_000;
  while (acknowledged.length < 10 && performance.now() < deadline) await sleep(50);
  await sleep(Math.random() * 1000);
  await killed(child);
  stop = true;
  await Promise.allSettled(writers);
  const store = await reopen();
  let lost = 0;
  try {
    for (const turn of acknowledged) {
      const history = await store.sessions.history(turn.session, 10);
      if (history.length !== 2 || history[0]?.content !== turn.query) lost++;
    }
  } finally {
    await store.close();
  }
  return { acknowledged: acknowledged.length, lost };
}

// ---- main ------------------------------------------------------------------------------------
// COHORT_SOAK_ONLY=load,restart runs only those drills (lock, load, kill, ingest, postgres, restart).
const ONLY = process.env.COHORT_SOAK_ONLY?.split(',').map((name) => name.trim());
const wanted = (drill: string) => !ONLY || ONLY.includes(drill);
const results: string[] = [];
const line = (text: string) => {
  results.push(text);
  console.log(text);
};

// Lock: a second process on a held folder is refused at once.
if (wanted('lock')) {
  const dir = folder();
  const { url, child } = await serve({ COHORT_DATA_DIR: dir });
  void url;
  const timed = async (args: string[]) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env: env({}) });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number>((resolve) =>
      child.once('exit', (c) => resolve(c ?? -1)),
    );
    return { code, err, ms: Math.round(performance.now() - started) };
  };
  // Node's own start-up, measured in the same run, so the refusal itself can be told apart.
  const baseline = await timed(['--version']);
  const refused = await timed(['ask', 'What is a topic?', '--data-dir', dir]);
  line(
    `lock: second process on a locked folder exited ${refused.code} after ${refused.ms} ms (\`cohort --version\` alone: ${baseline.ms} ms, so ${refused.ms - baseline.ms} ms beyond start-up); names the holder and DATABASE_URL: ${refused.err.includes('in use by process') && refused.err.includes('DATABASE_URL')}`,
  );
  // Fuzzing on the same server.
  const fuzzed = await fuzz(url, 10_000);
  line(
    `fuzz: ${fuzzed.sent} requests over every endpoint, ${fuzzed.fiveXX} 5xx; statuses ${JSON.stringify(fuzzed.statuses)}`,
  );
  await stopped(child);
}

// 200 concurrent clients on PGlite: one session, writes.
if (wanted('load')) {
  const dir = folder();
  const { url, child } = await serve({ COHORT_DATA_DIR: dir });
  const session = randomUUID();
  const latencies: number[] = [];
  let errors = 0;
  // One kept-alive connection per client, as a browser or an SDK client would hold.
  const agent = new Agent({ keepAlive: true, maxSockets: 200 });
  const until = performance.now() + 10_000;
  await Promise.all(
    Array.from({ length: 200 }, async (_, n) => {
      while (performance.now() < until) {
        const t = performance.now();
        try {
          const status = await postOn(agent, url, '/chat', {
            query: QUESTIONS[n % 3],
            session_id: session,
          });
          if (status !== 200) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const p = (q: number) => Math.round(latencies[Math.floor(latencies.length * q)] ?? 0);
  line(
    `load: 200 concurrent clients on PGlite (one session), ${latencies.length} requests, ${errors} errors, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms`,
  );
  await stopped(child);
}

// kill -9 during writes on PGlite.
if (wanted('kill')) {
  let acknowledged = 0;
  let lost = 0;
  for (let run = 0; run < 5; run++) {
    const dir = folder();
    const result = await killDuringWrites({ COHORT_DATA_DIR: dir }, () =>
      openStore({ dataDir: dir }),
    );
    acknowledged += result.acknowledged;
    lost += result.lost;
  }
  line(`kill -9 (PGlite): 5 runs, ${acknowledged} acknowledged turns, ${lost} lost`);
}

// Interrupted ingestion: kill -9 during first-use ingestion, then restart.
if (wanted('ingest')) {
  const states: string[] = [];
  let completed = 0;
  for (let run = 0; run < 3; run++) {
    const dir = folder();
    const first = spawn(process.execPath, [BIN, 'ask', 'What is a topic?', '--data-dir', dir], {
      env: env({}),
      stdio: 'ignore',
    });
    await sleep(800 + run * 700);
    await killed(first);
    const peek = await openStore({ dataDir: dir });
    const during = (await peek.chunks.documentHashes()).size;
    await peek.close();
    const again = spawn(process.execPath, [BIN, 'ask', 'What is a topic?', '--data-dir', dir], {
      env: env({}),
      stdio: 'ignore',
    });
    await new Promise((resolve) => again.once('exit', resolve));
    const after = await openStore({ dataDir: dir });
    const documents = (await after.chunks.documentHashes()).size;
    await after.close();
    states.push(`${during}→${documents}`);
    if (documents === 15) completed++;
  }
  line(
    `ingestion: kill -9 during first-use ingestion, documents after the kill → after restart: ${states.join(', ')} (15 expected: ${completed}/3 complete)`,
  );
}

if (PG_URL && wanted('postgres')) {
  let acknowledged = 0;
  let lost = 0;
  for (let run = 0; run < 5; run++) {
    const url = await pgSchemaUrl();
    const result = await killDuringWrites({ DATABASE_URL: url }, () =>
      openStore({ dataDir: '', databaseUrl: url }),
    );
    acknowledged += result.acknowledged;
    lost += result.lost;
  }
  line(`kill -9 (PostgreSQL): 5 runs, ${acknowledged} acknowledged turns, ${lost} lost`);

  const dbUrl = await pgSchemaUrl();
  const { url, child } = await serve({ DATABASE_URL: dbUrl });
  const session = randomUUID();
  const replies = await Promise.all(
    Array.from({ length: 100 }, (_, n) =>
      post(url, '/chat', { query: `${QUESTIONS[n % 3]} #${n}`, session_id: session }),
    ),
  );
  const store = await openStore({ dataDir: '', databaseUrl: dbUrl });
  const history = await store.sessions.history(session, 1000);
  let adjacent = 0;
  for (let i = 0; i + 1 < history.length; i += 2) {
    if (history[i]?.role === 'user' && history[i + 1]?.role === 'assistant') adjacent++;
  }
  await store.close();
  await stopped(child);
  line(
    `PostgreSQL: 100 concurrent turns on one session: ${replies.filter((r) => r.status === 200).length} answered, ${adjacent}/${history.length / 2} turns adjacent`,
  );
} else if (wanted('postgres')) {
  line('PostgreSQL drills skipped: set COHORT_SOAK_DATABASE_URL');
}

// A real database restart under load: a PostgreSQL cluster of the soak's own (never the shared
// one) is stopped with a fast shutdown, which terminates every pooled connection, while 20
// clients keep posting turns; then it starts again.
const noCluster = throwawayPostgresSkip();
if (!wanted('restart')) {
  // not selected
} else if (noCluster) line(`database restart drill skipped: ${noCluster}`);
else {
  const cluster = await startThrowawayPostgres();
  const server = await startServeProcess(
    { DATABASE_URL: cluster.url, COHORT_LOG_LEVEL: 'warn' },
    folder(),
  );
  const phases: Record<string, Record<number, number>> = { before: {}, down: {}, after: {} };
  let phase = 'before';
  let stop = false;
  const client = async (n: number) => {
    while (!stop) {
      let status: number;
      try {
        status = (await post(server.url, '/chat', { query: QUESTIONS[n % 3] })).status;
      } catch {
        status = 0; // the connection itself failed
      }
      const counts = phases[phase] as Record<number, number>;
      counts[status] = (counts[status] ?? 0) + 1;
    }
  };
  const clients = Array.from({ length: 20 }, (_, n) => client(n));
  await sleep(2000);
  phase = 'down';
  cluster.stop();
  await sleep(2000);
  const aliveWhileDown = server.alive();
  cluster.start();
  phase = 'after';
  const restarted = performance.now();
  let firstOkMs = -1;
  while (firstOkMs < 0 && performance.now() - restarted < 10_000) {
    const status = await post(server.url, '/chat', { query: QUESTIONS[0] }).then(
      (reply) => reply.status,
      () => 0,
    );
    if (status === 200) firstOkMs = Math.round(performance.now() - restarted);
    else if (!server.alive()) break;
  }
  await sleep(2000);
  stop = true;
  await Promise.all(clients);
  const dropped = server.stderr().split('database_connection_lost').length - 1;
  const aliveAfter = server.alive();
  if (!aliveAfter) console.error(`the server exited:\n${server.stderr().slice(-3000)}`);
  await server.stop();
  cluster.destroy();
  line(
    `database restart (own cluster, fast shutdown under 20 clients): statuses before ${JSON.stringify(phases.before)}, while down ${JSON.stringify(phases.down)}, after restart ${JSON.stringify(phases.after)}; pooled connections dropped and logged: ${dropped}; server alive while down: ${aliveWhileDown}, at the end: ${aliveAfter}; first 200 ${firstOkMs} ms after the restart`,
  );
}

console.log('\nsoak summary\n' + results.map((r) => `  ${r}`).join('\n'));
process.exit(0);
