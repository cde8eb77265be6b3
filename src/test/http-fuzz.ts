/**
 * Hostile requests for every route of `cohort serve`, and the check each answer must pass: no
 * 500, no crash, and a 4xx that is a JSON error naming what was wrong. Used by the in-process
 * test (`src/server/http-fuzz.test.ts`, a few hundred cases) and by `scripts/fuzz-http.ts`
 * (thousands, against a real `cohort serve` process).
 */
import { seededRandom } from './seeded-random.js';

/** One request to send. `body` is sent as is (already serialised); `rawHead` is for sockets. */
export interface FuzzCase {
  /** What the case tries, for the report. */
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A route of the server, with a body (or none) that it accepts. */
interface FuzzRoute {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  valid?: Record<string, unknown>;
}

const SESSION = '0b9e4c8a-7d1f-4a53-9a47-2f6c1d2e3f40';

/** Every route of the server (src/server/routes, src/mcp/mcp-routes.ts), with a valid body. */
export const FUZZ_ROUTES: readonly FuzzRoute[] = [
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/app.js' },
  { method: 'GET', path: '/app.css' },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/openapi.json' },
  { method: 'GET', path: '/agents' },
  { method: 'GET', path: '/v1/models' },
  { method: 'POST', path: '/chat', valid: { query: 'What is a topic?', session_id: SESSION } },
  { method: 'POST', path: '/chat/stream', valid: { query: 'What is a topic?' } },
  { method: 'POST', path: '/route', valid: { query: 'What is a topic?' } },
  { method: 'POST', path: '/research', valid: { question: 'What is a topic?', tasks: 1 } },
  { method: 'POST', path: '/research/stream', valid: { question: 'What is a topic?', tasks: 1 } },
  { method: 'POST', path: '/code', valid: { request: 'List the files.' } },
  { method: 'POST', path: '/code/stream', valid: { request: 'List the files.' } },
  { method: 'POST', path: '/code/runs/run-1/approval', valid: { decision: 'yes' } },
  { method: 'POST', path: '/code/runs/run-1/approval/stream', valid: { decision: 'no' } },
  {
    method: 'POST',
    path: '/v1/chat/completions',
    valid: { model: 'cohort', messages: [{ role: 'user', content: 'What is a topic?' }] },
  },
  {
    method: 'POST',
    path: '/mcp',
    valid: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'route', arguments: { query: 'What is a topic?' } },
    },
  },
  { method: 'GET', path: `/sessions/${SESSION}/messages` },
  { method: 'DELETE', path: `/sessions/${SESSION}` },
  { method: 'GET', path: '/runs/run-1/trace' },
];

/** Values of every JSON type and shape a field should not take, and some it should. */
const HOSTILE_VALUES: readonly unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  false,
  '',
  ' ',
  '\t\n',
  'x',
  'a'.repeat(2001),
  'a'.repeat(30_000),
  '🤖 ✓ 日本語 עברית ‮rtl',
  'e\u0301\u0301\u0301',
  '\u200b\ufeff',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE sessions; --",
  '%s%n%x',
  '${process.exit()}',
  '__proto__',
  [],
  [1, 2, 3],
  ['What is a topic?'],
  {},
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
  Array.from({ length: 2000 }, () => 'x'),
];

/** Bodies that are not a JSON object at all. */
const MALFORMED_BODIES: readonly string[] = [
  '',
  ' ',
  '{',
  '}',
  '{"query":',
  '{"query": "x",}',
  "{'query': 'x'}",
  '{query: "x"}',
  'null',
  'true',
  '0',
  '"What is a topic?"',
  '[]',
  '[{"query": "x"}]',
  'NaN',
  '{"query": NaN}',
  '{"query": Infinity}',
  '{"query": "\\ud800"}',
  '{"query": "\\u0000"}',
  '{"query": "x"}{"query": "y"}',
  '\u0000',
  '\ufeff{"query": "x"}',
  '{"query": "x", "query": 5}',
  '{"__proto__": {"polluted": true}, "query": "x"}',
  '{"constructor": {"prototype": {"x": 1}}}',
  '{"query": 1e999999}',
  `{"query": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
  `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
  `{"query": "${'x'.repeat(70_000)}"}`,
  '\xff\xfe{',
];

const CONTENT_TYPES: readonly (string | undefined)[] = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/xml',
  'application/jsonx',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  '',
  ';;;',
];

const PATH_PARTS: readonly string[] = [
  '',
  '%',
  '%zz',
  '%00',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..',
  '...',
  'a'.repeat(5000),
  '%F0%9F%A4%96',
  '%C0%AE',
  '%ED%A0%80',
  'anonymous',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  ' ',
  '%20',
  "'",
  '"',
  '*',
  '$(id)',
];

const QUERY_STRINGS: readonly string[] = [
  '?limit=abc',
  '?limit=-1',
  '?limit=0',
  '?limit=1e9',
  '?limit=1.5',
  '?limit=',
  '?limit',
  '?limit=5&limit=6',
  '?limit[]=1',
  '?limit=%00',
  '?limit=%zz',
  '?%=%',
  `?x=${'y'.repeat(6000)}`,
  '?limit=NaN',
  '?limit=Infinity',
  '?limit=0x10',
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

const JSON_TYPE = { 'content-type': 'application/json' };

/** Every key path of a plain JSON value, as arrays of keys (objects and arrays). */
function keyPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...prefix, key], ...keyPaths(item, [...prefix, key])]);
}

/** A deep copy of `value` with the value at `path` set (or removed, for `undefined`). */
function withValue(value: unknown, path: (string | number)[], next: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (next === undefined) delete target[last];
  else target[last] = next;
  return copy;
}

/** Every hostile variant of one route, systematically (no randomness). */
function routeCases(route: FuzzRoute): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const add = (name: string, c: Omit<FuzzCase, 'name'>) => cases.push({ name, ...c });
  const base = { method: route.method, path: route.path };
  // Wrong methods on the route's path.
  for (const method of METHODS) {
    if (method === route.method) continue;
    add(`${method} on ${route.path}`, { method, path: route.path, headers: JSON_TYPE, body: '{}' });
  }
  if (route.valid) {
    const valid = JSON.stringify(route.valid);
    add('valid body', { ...base, headers: JSON_TYPE, body: valid });
    for (const body of MALFORMED_BODIES)
      add('malformed body', { ...base, headers: JSON_TYPE, body });
    for (const type of CONTENT_TYPES) {
      add(`content-type ${type ?? '(none)'}`, {
        ...base,
        headers: type === undefined ? {} : { 'content-type': type },
        body: valid,
      });
    }
    for (const path of keyPaths(route.valid)) {
      add(`without ${path.join('.')}`, {
        ...base,
        headers: JSON_TYPE,
        body: JSON.stringify(withValue(route.valid, path, undefined)),
      });
      for (const value of HOSTILE_VALUES) {
        add(`${path.join('.')} = ${JSON.stringify(value)?.slice(0, 40)}`, {
          ...base,
          headers: JSON_TYPE,
          body: JSON.stringify(withValue(route.valid, path, value)),
        });
      }
    }
    add('unknown field', {
      ...base,
      headers: JSON_TYPE,
      body: JSON.stringify({ ...route.valid, unexpected_field: 1 }),
    });
    add('deeply nested field', {
      ...base,
      headers: JSON_TYPE,
      body: JSON.stringify({ ...route.valid, extra: nest(200) }),
    });
  }
  // Path parameters and query strings.
  if (/run-1|0b9e4c8a/.test(route.path)) {
    for (const part of PATH_PARTS) {
      add(`path part ${part.slice(0, 30)}`, {
        ...base,
        path: route.path.replace(/run-1|0b9e4c8a-[\w-]+/, part),
        headers: route.valid ? JSON_TYPE : {},
        ...(route.valid ? { body: JSON.stringify(route.valid) } : {}),
      });
    }
  }
  for (const query of QUERY_STRINGS) {
    add(`query ${query.slice(0, 30)}`, {
      ...base,
      path: route.path + query,
      headers: route.valid ? JSON_TYPE : {},
      ...(route.valid ? { body: JSON.stringify(route.valid) } : {}),
    });
  }
  // Headers.
  const headerCases: Record<string, string>[] = [
    { authorization: 'Bearer ' + 'x'.repeat(4000) },
    { authorization: 'Basic Og==' },
    { authorization: '' },
    { 'x-request-id': 'x'.repeat(2000) },
    { 'x-request-id': '../../../etc' },
    { 'x-request-id': '' },
    { traceparent: 'garbage' },
    { traceparent: '00-' + '0'.repeat(32) + '-' + '0'.repeat(16) + '-01' },
    { accept: 'text/event-stream' },
    { accept: '*/*;q=abc' },
    { 'accept-encoding': 'gzip;q=2, br' },
    { 'x-long': 'y'.repeat(8000) },
    { origin: 'https://evil.example' },
    { 'content-length': '5' },
    { 'content-encoding': 'gzip' },
    { 'transfer-encoding': 'chunked' },
  ];
  for (const headers of headerCases) {
    add(`header ${Object.keys(headers)[0]}`, {
      ...base,
      headers: { ...(route.valid ? JSON_TYPE : {}), ...headers },
      ...(route.valid ? { body: JSON.stringify(route.valid) } : {}),
    });
  }
  return cases;
}

function nest(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Requests for paths no route has. */
const STRAY_CASES: FuzzCase[] = [
  '/nope',
  '/chat/',
  '//chat',
  '/chat/../healthz',
  '/%',
  '/%zz',
  '/sessions/',
  '/sessions//messages',
  '/runs//trace',
  '/v1',
  '/v1/',
  '/v1/chat',
  '/' + 'a'.repeat(6000),
  '/openapi.json/x',
  '/code/runs//approval',
].map((path) => ({ name: `stray path ${path.slice(0, 30)}`, method: 'GET', path, headers: {} }));

/**
 * The fuzz cases: every systematic variant of every route, then `extra` random combinations of
 * a route, a hostile value at a random field and a random content type (seeded).
 *
 * @example
 * for (const c of fuzzCases({ extra: 100, seed: 1 })) await app.request(c.path, c);
 */
export function fuzzCases(options: { extra?: number; seed?: number } = {}): FuzzCase[] {
  const cases = [...FUZZ_ROUTES.flatMap(routeCases), ...STRAY_CASES];
  const random = seededRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const bodied = FUZZ_ROUTES.filter((route) => route.valid);
  for (let i = 0; i < (options.extra ?? 0); i++) {
    const route = pick(bodied);
    let body: unknown = route.valid;
    // Two or three hostile values at once, at random fields.
    for (let n = 0; n < 2 + Math.floor(random() * 2); n++) {
      const paths = keyPaths(body);
      if (paths.length === 0) break;
      body = withValue(body, pick(paths), pick(HOSTILE_VALUES));
    }
    const type = random() < 0.85 ? 'application/json' : pick(CONTENT_TYPES);
    cases.push({
      name: `random ${i}`,
      method: route.method,
      path: route.path,
      headers: type === undefined ? {} : { 'content-type': type },
      body: JSON.stringify(body),
    });
  }
  // The MCP transport answers only clients that accept both JSON and event streams.
  return cases.map((c) =>
    c.path.startsWith('/mcp') && !c.headers.accept
      ? { ...c, headers: { ...c.headers, accept: 'application/json, text/event-stream' } }
      : c,
  );
}

/** Error codes a 503/504 may carry: states the server chose and named, not crashes. */
const CHOSEN_UNAVAILABLE = new Set([
  'model_not_configured',
  'model_unavailable',
  'retrieval_unavailable',
  'store_unavailable',
  'timeout',
  'aborted',
  'budget_exceeded',
]);

/**
 * What is wrong with one answer, or undefined when it is acceptable: a 500 (or an `internal`
 * error event in a stream), a 503/504 that is not a named state, a 4xx that is not a JSON error
 * with a code and a message, or a 422 that names no field.
 */
export function fuzzProblem(
  status: number,
  contentType: string,
  text: string,
  options: { head?: boolean } = {},
): string | undefined {
  if (status === 500) return `500: ${text.slice(0, 200)}`;
  // A HEAD answer has no body to check.
  if (options.head) return status >= 500 ? `${status} to HEAD` : undefined;
  if (/"code":\s*"internal"|"code":\s*-32603/.test(text)) {
    return `internal error in the answer: ${text.slice(0, 200)}`;
  }
  if (status < 400) return undefined;
  // Node itself answers some malformed requests (431 headers too large, 400 bad request) before
  // the app sees them, without a body.
  if ((status === 431 || status === 400 || status === 408) && text === '') return undefined;
  if (status === 405 && /\/mcp/.test(text)) return undefined;
  if (!contentType.includes('json'))
    return `${status} is not JSON: ${contentType} ${text.slice(0, 120)}`;
  let body: { error?: { code?: unknown; message?: unknown; field?: unknown } } & {
    jsonrpc?: string;
  };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return `${status} body is not valid JSON: ${text.slice(0, 120)}`;
  }
  if (body.jsonrpc) return undefined;
  const error = body.error;
  if (
    !error ||
    typeof error.code !== 'string' ||
    typeof error.message !== 'string' ||
    !error.message
  )
    return `${status} without { error: { code, message } }: ${text.slice(0, 120)}`;
  if (status >= 500 && !CHOSEN_UNAVAILABLE.has(error.code))
    return `${status} ${error.code}: ${error.message}`;
  if (status === 422 && (typeof error.field !== 'string' || error.field === ''))
    return `422 names no field: ${error.message}`;
  return undefined;
}
