import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// What `npm run build` makes (scripts/bundle.mjs): the library and the CLI as a few bundled files,
// which must find the package's files (package.json, agents, sample book) from where they sit.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const built = existsSync(join(ROOT, 'dist/index.js'));
const dir = mkdtempSync(join(tmpdir(), 'cohort-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = async (...argv: string[]) =>
  (
    await promisify(execFile)(process.execPath, [join(ROOT, 'bin/cohort.js'), ...argv], {
      env: {
        ...process.env,
        COHORT_DATA_DIR: 'memory://',
        OPENAI_API_KEY: '',
        OPENAI_BASE_URL: '',
      },
      timeout: 60_000,
    })
  ).stdout;

describe.skipIf(!built)('the bundle `npm run build` makes', () => {
  it('is what `import("cohort")` loads: a few files of cohort’s own, not one per module', async () => {
    const log = join(dir, 'modules.log');
    const script = join(dir, 'import.mjs');
    writeFileSync(script, `await import(${JSON.stringify(join(ROOT, 'dist/index.js'))});`);
    await promisify(execFile)(
      process.execPath,
      ['--import', join(ROOT, 'src/test/record-modules.mjs'), script],
      { env: { ...process.env, COHORT_MODULE_LOG: log }, timeout: 60_000 },
    );
    const loaded = readFileSync(log, 'utf8').split('\n');
    const own = loaded.filter((url) => url.startsWith(`file://${ROOT}dist/`));
    expect(own.length).toBeGreaterThan(0);
    expect(own.length).toBeLessThan(40);
    // zod is bundled (every entry of the package loads its ~60 locales: 100 modules), and so
    // are the AI SDK providers that import it.
    expect(loaded.filter((url) => /node_modules\/(zod|@ai-sdk)\//.test(url))).toEqual([]);
    // So are hono and stemmer, and picomatch and tinyglobby load on first use: resolving and
    // linking the packages' modules one by one (hono's 34) was a sixth of the import. Only
    // cohort's files and Node's built-ins load, and none of them carries the glob matchers.
    const others = loaded.filter(
      (url) => url !== '' && url !== pathToFileURL(script).href && !own.includes(url),
    );
    expect(others.filter((url) => !url.startsWith('node:'))).toEqual([]);
    const globbing = own.filter((url) =>
      /\/\/ (\S*\/)?node_modules\/(picomatch|tinyglobby|fdir)\//.test(
        readFileSync(fileURLToPath(url), 'utf8'),
      ),
    );
    expect(globbing).toEqual([]);
    // Node's networking, process and worker modules are required on first use
    // (src/builtins/lazy-builtins.ts): compiling them was a twentieth of the import.
    const lazy = ['http', 'net', 'dns', 'dns/promises', 'child_process', 'worker_threads', 'v8'];
    expect(others.filter((url) => lazy.includes(url.replace(/^node:/, '')))).toEqual([]);
    // The providers load on a model's first call (models/lazy-model.ts): a program with no model,
    // or one that has not called it yet, does not parse them (a quarter of the bundle's code).
    const providers = own.filter((url) =>
      /\/\/ (\S*\/)?node_modules\/@ai-sdk\/openai(-compatible)?\/dist\//.test(
        readFileSync(fileURLToPath(url), 'utf8'),
      ),
    );
    expect(providers).toEqual([]);
  });

  it('builds none of cohort’s zod schemas at import: each is built on first use (lazySchema)', async () => {
    // Building the ~1,650 schemas that modules declared at module level (configuration, wire
    // formats, server bodies, tool inputs) was a fifth of `import('cohort')`. zod calls its
    // global post-processor (zod's hook for `zod/compile`, read from globalThis by the bundled copy
    // too) once per schema it builds; the script counts those calls across the import.
    const script = join(dir, 'count-schemas.mjs');
    writeFileSync(
      script,
      `let built = 0;
globalThis.__zod_globalConfig = { postProcessor: () => { built++; } };
const cohort = await import(${JSON.stringify(join(ROOT, 'dist/index.js'))});
const atImport = built;
cohort.CohortConfig.parse({});
console.log(JSON.stringify({ atImport, afterParse: built }));`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 60_000 });
    const counts = JSON.parse(stdout) as { atImport: number; afterParse: number };
    expect(counts.atImport).toBe(0);
    // The hook does count: the first parse builds the configuration's schemas.
    expect(counts.afterParse).toBeGreaterThan(100);
  });

  it('parses the agent files once: a later command reads their frontmatter from the user cache', async () => {
    // Loading the YAML parser and parsing the five built-in agents was a tenth of a cold ask.
    const cache = mkdtempSync(join(dir, 'xdg-'));
    const loads = async () =>
      (
        await promisify(execFile)(process.execPath, [join(ROOT, 'bin/cohort.js'), 'agents'], {
          env: { ...process.env, XDG_CACHE_HOME: cache, NODE_DEBUG: 'module' },
          timeout: 60_000,
        })
      ).stderr
        .split('\n')
        .filter((line) => /load ".*\/node_modules\/yaml\/dist\//.test(line));
    expect((await loads()).length).toBeGreaterThan(0);
    expect(await loads()).toEqual([]);
  });

  it('reads the version from package.json and the built-in agents from the package', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(await cli('--version')).toBe(`cohort ${version}\n`);
    expect(await cli('agents')).toMatch(/^book \(fallback\)/);
  });

  it('answers from the sample book, with the caches keyed by the bundle’s code', async () => {
    const reply = JSON.parse(await cli('ask', 'What is a ROS 2 topic?', '--json')) as {
      answer: string;
    };
    expect(reply.answer).toContain('A topic is a named channel');
  }, 60_000);
});
