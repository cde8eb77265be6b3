// Fuzzes every route of a real `cohort serve` process (npx tsx scripts/fuzz-http.ts; not part of
// npm test, whose fast version is src/server/http-fuzz.test.ts). Sends the systematic hostile
// variants of src/test/http-fuzz.ts plus random ones, then requests the HTTP parser itself
// mishandles on purpose (oversized headers, broken request lines), and reports: requests sent,
// answers by status, 500s, other problems (a 4xx that is not a JSON error naming what was wrong),
// and whether the process survived. Exits 1 on any problem.
//
//   npx tsx scripts/fuzz-http.ts [--extra 3000] [--seed 1] [--concurrency 8] [--url http://…]
//                                [--hostile-model]
//
// Without --url it starts `cohort serve --port 0` from the sources on a fresh data folder (the
// sample book is ingested on first start) with no model configured and no network tools. With
// --hostile-model that server's model is a fake OpenAI server answering each call at random as a
// malicious or broken model would (src/test/hostile-model.ts): the answers, research and coding
// runs then go through tool calls, loops and model failures, not only extractive answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTestCli } from '../src/test/cli-bundle.js';
import { startFakeOpenAI, type FakeOpenAI } from '../src/test/fake-openai-server.js';
import { hostileChatReply } from '../src/test/hostile-model.js';
import { fuzzCases, fuzzProblem, type FuzzCase } from '../src/test/http-fuzz.js';
import { seededRandom } from '../src/test/seeded-random.js';
import { startServeProcess, type ServeProcess } from '../src/test/serve-process.js';
import { scriptArgs } from './script-args.js';

const { values } = scriptArgs(
  {
    options: {
      extra: { type: 'string', default: '3000' },
      seed: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '8' },
      url: { type: 'string' },
      'hostile-model': { type: 'boolean', default: false },
    },
  },
  'npx tsx scripts/fuzz-http.ts [--extra 3000] [--seed 1] [--concurrency 8] [--url http://…] [--hostile-model]',
);
const PER_REQUEST_MS = 90_000;

/** One answer, read whole (a stream to its end), or the transport error. */
interface Answer {
  status: number;
  contentType: string;
  text: string;
  error?: string;
}

function send(base: URL, agent: Agent, c: FuzzCase): Promise<Answer> {
  return new Promise((resolve) => {
    // Node's client refuses to send a path with spaces or non-ASCII: those go percent-encoded.
    const path = c.path.replace(/[^\x21-\x7e]/g, (char) => encodeURIComponent(char));
    // Node's client frames a body of DELETE or OPTIONS with neither Content-Length nor chunked
    // encoding, and a forged Content-Length leaves bytes behind: the server reads them as the
    // next request, answers that garbage 400 and closes, and the next case sent on the kept-alive
    // socket read that 400 as its own answer. Bodies get their length; forged framing its own
    // connection.
    const sendsBody = c.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD';
    const framed = Object.keys(c.headers).some((name) =>
      /^(content-length|transfer-encoding)$/i.test(name),
    );
    const headers =
      sendsBody && !framed
        ? { ...c.headers, 'content-length': String(Buffer.byteLength(c.body ?? '')) }
        : c.headers;
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: c.method,
        path,
        headers,
        agent: framed ? false : agent,
        timeout: PER_REQUEST_MS,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text,
          }),
        );
        res.on('error', (error) =>
          resolve({ status: res.statusCode ?? 0, contentType: '', text, error: String(error) }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${PER_REQUEST_MS} ms`)));
    req.on('error', (error) =>
      resolve({ status: 0, contentType: '', text: '', error: String(error) }),
    );
    if (c.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD') req.end(c.body);
    else req.end();
  });
}

/** Raw requests the HTTP parser must refuse (Node answers them itself) without harm. */
const RAW_REQUESTS: readonly string[] = [
  `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
  'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n',
  'GARBAGE\r\n\r\n',
  'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  'POST /chat HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  'POST /chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'GET /healthz HTTP/1.1\r\nHost: x\r\n\x00: y\r\n\r\n',
  '\r\n\r\n\r\n',
  'POST /route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}',
];

function sendRaw(base: URL, raw: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(base.port), base.hostname, () => socket.end(raw));
    let reply = '';
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (data) => (reply += data.toString()));
    socket.on('error', () => resolve(reply));
    socket.on('close', () => resolve(reply));
  });
}

async function main(): Promise<number> {
  let server: ServeProcess | undefined;
  let model: FakeOpenAI | undefined;
  let dir: string | undefined;
  // Stop the server and remove its data folder whatever happens to the fuzzer, so nothing is left
  // behind (each run's folder holds a PGlite store of about 80 MB).
  process.once('exit', () => {
    server?.child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  let url = values.url;
  if (!url) {
    dir = mkdtempSync(join(tmpdir(), 'cohort-fuzz-'));
    const random = seededRandom(Number(values.seed));
    model = values['hostile-model']
      ? await startFakeOpenAI({ chat: () => hostileChatReply(random) })
      : undefined;
    const modelEnv: Record<string, string> = model
      ? { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'fuzz', COHORT_MODEL_TIMEOUT: '10' }
      : {};
    await ensureTestCli(dir);
    process.stdout.write('Starting cohort serve (first start ingests the sample book)…\n');
    server = await startServeProcess(
      { COHORT_DATA_DIR: join(dir, 'data'), COHORT_LOG_LEVEL: 'warn', ...modelEnv },
      dir,
      180_000,
    );
    url = server.url;
  }
  const base = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: Number(values.concurrency) });
  const cases = fuzzCases({ extra: Number(values.extra), seed: Number(values.seed) });
  const statuses = new Map<string, number>();
  const problems: string[] = [];
  let fiveHundreds = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++] as FuzzCase;
      const answer = await send(base, agent, c);
      const key = answer.error ? `no answer` : String(answer.status);
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (answer.status === 500) fiveHundreds += 1;
      const problem = answer.error
        ? // A request Node refused mid-body (a forged Content-Length) may end in a reset.
          /content-length|transfer-encoding/i.test(Object.keys(c.headers).join())
          ? undefined
          : `no answer: ${answer.error}`
        : fuzzProblem(answer.status, answer.contentType, answer.text, {
            head: c.method === 'HEAD',
          });
      if (problem) problems.push(`${c.method} ${c.path.slice(0, 60)} [${c.name}]: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
  for (const raw of RAW_REQUESTS) {
    const reply = await sendRaw(base, raw);
    const status = /^HTTP\/1\.1 (\d+)/.exec(reply)?.[1] ?? 'closed';
    statuses.set(`raw ${status}`, (statuses.get(`raw ${status}`) ?? 0) + 1);
    if (status.startsWith('5')) problems.push(`raw ${JSON.stringify(raw.slice(0, 40))}: ${status}`);
  }
  agent.destroy();
  const health = await fetch(`${url}/healthz`).then(
    (res) => res.status,
    () => 0,
  );
  const alive = server ? server.alive() : health !== 0;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const sent = cases.length + RAW_REQUESTS.length;
  process.stdout.write(
    `${sent} requests (${cases.length} over ${new Set(cases.map((c) => c.path.split('?')[0])).size} paths + ${RAW_REQUESTS.length} raw) in ${seconds} s\n` +
      `answers: ${[...statuses]
        .sort()
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')}\n` +
      `500s: ${fiveHundreds} · other problems: ${problems.length - fiveHundreds} · process alive: ${alive} · /healthz after: ${health}\n`,
  );
  for (const problem of problems.slice(0, 30)) process.stdout.write(`  ${problem.slice(0, 300)}\n`);
  if (server) {
    const logs = server.stderr();
    const errors = logs.split('\n').filter((line) => line.includes('"level":"error"'));
    process.stdout.write(`error log lines: ${errors.length}\n`);
    for (const line of errors.slice(0, 5)) process.stdout.write(`  ${line.slice(0, 300)}\n`);
    await server.stop();
  }
  if (model) {
    process.stdout.write(`hostile model calls: ${model.requests.length}\n`);
    await model.close();
  }
  return problems.length > 0 || !alive ? 1 : 0;
}

process.exitCode = await main();
