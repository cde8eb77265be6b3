import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Cohort from './index.js';

// `npm run build` bundles cohort's own copy of hono (scripts/bundle.mjs), so `import('cohort')`
// does not resolve and link hono's 34 modules. `createServer` hands out an app of that copy: it
// must work as a user's hono app does, mounted in one, and with a user's middleware added to it.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const entry = join(ROOT, 'dist/index.js');
const built = existsSync(entry);
const load = async () => (await import(pathToFileURL(entry).href)) as typeof Cohort;
const cwd = mkdtempSync(join(tmpdir(), 'cohort-bundle-hono-'));
let opened: Awaited<ReturnType<typeof Cohort.openAssistant>> | undefined;
afterAll(async () => {
  await opened?.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe.skipIf(!built)('the bundle’s hono beside the user’s hono', () => {
  let app: ReturnType<typeof Cohort.createServer>;
  beforeAll(async () => {
    const { openAssistant, loadConfig, createServer } = await load();
    opened = await openAssistant({
      config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd }),
    });
    app = createServer(opened);
  }, 120_000);

  it('is a copy of its own (what the other tests rely on)', () => {
    expect(app).not.toBeInstanceOf(Hono);
  });

  it('serves mounted in a user’s app', async () => {
    const outer = new Hono();
    outer.get('/own', (c) => c.text('own route'));
    outer.route('/cohort', app);
    expect(await (await outer.request('/own')).text()).toBe('own route');
    const health = await outer.request('/cohort/healthz');
    expect(health.status).toBe(200);
  });

  it('runs a user’s middleware and routes, and answers a user’s HTTPException as any failure', async () => {
    const seen: string[] = [];
    const { createServer } = await load();
    const extended = createServer(opened!);
    extended.use('/mine/*', async (c, next) => {
      seen.push(c.req.path);
      await next();
    });
    extended.get('/mine/hello', (c) => c.text('hello'));
    extended.get('/mine/refused', () => {
      throw new HTTPException(401, { message: 'no' });
    });
    expect(await (await extended.request('/mine/hello')).text()).toBe('hello');
    expect(seen).toEqual(['/mine/hello']);
    // cohort's error handler answers what it does not know as a 500, whichever hono threw it.
    const refused = await extended.request('/mine/refused');
    expect(refused.status).toBe(500);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('internal');
  });
});
