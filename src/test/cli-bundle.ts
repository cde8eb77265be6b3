import { mkdirSync, symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

/**
 * Vitest global setup (after temp-root.ts): bundles the CLI from the sources once per test run,
 * for the tests that start cohort as a child process. Started through tsx, each child compiled
 * and loaded ~280 modules (2–3 s of CPU a start, ~40 starts a run); the bundle is one file,
 * loaded in a fraction of that.
 *
 * It runs as the sources do, not as `npm run build`'s bundle: every module's `import.meta.url` is
 * its source file's URL, so the package root, the web page's folder, package resolution
 * (`createRequire`) and the build-cache fingerprints (hashes of the source folders) are the ones a
 * test process computes, and a folder prepared in the test process is loaded by its child as it
 * would be by another test process. Only `cohort serve`'s first-start child, which the sources
 * would start through tsx, is this bundle's own (see `COHORT_FIRST_START_CHILD`), for its processes
 * and for the test processes (vitest.config.ts).
 */
export default async function setup(): Promise<void> {
  const tempRoot = process.env.COHORT_TEST_TEMP_ROOT;
  if (!tempRoot) throw new Error('cli-bundle.ts runs after temp-root.ts in globalSetup');
  await bundleCli(tempRoot);
}

/**
 * For a script run outside vitest (`scripts/fuzz-http.ts`, `scripts/soak.ts`), which starts cohort
 * processes through `testCli()`: bundles the CLI into `root` as a test run's global setup does,
 * unless this process already has a bundle (`COHORT_TEST_CLI`). Without it those scripts stopped
 * at their first `cohort serve` with "COHORT_TEST_CLI is unset".
 *
 * @example
 * await ensureTestCli(mkdtempSync(join(tmpdir(), 'cohort-fuzz-')));
 * await startServeProcess({ COHORT_DATA_DIR: dataDir }, workspace);
 */
export async function ensureTestCli(root: string): Promise<void> {
  if (!process.env.COHORT_TEST_CLI) await bundleCli(root);
}

/** Bundles the CLI into `root/cohort-cli` and names it in `COHORT_TEST_CLI` (see `setup`). */
async function bundleCli(root: string): Promise<void> {
  const outdir = join(root, 'cohort-cli');
  mkdirSync(outdir);
  // Packages stay external and resolve from the bundle's folder: through this link, the project's.
  symlinkSync(
    fileURLToPath(new URL('../../node_modules', import.meta.url)),
    join(outdir, 'node_modules'),
  );
  const firstStartChild = join(outdir, 'first-start-child.js');
  await esbuild.build({
    entryPoints: {
      cohort: fileURLToPath(new URL('./cohort-cli.ts', import.meta.url)),
      'first-start-child': fileURLToPath(new URL('../cli/first-start-child.ts', import.meta.url)),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [sourceModuleUrls],
    tsconfig: fileURLToPath(new URL('../../tsconfig.build.json', import.meta.url)),
    define: { COHORT_FIRST_START_CHILD: JSON.stringify(firstStartChild) },
    logLevel: 'warning',
  });
  process.env.COHORT_TEST_CLI = join(outdir, 'cohort.js');
  process.env.COHORT_TEST_FIRST_START_CHILD = firstStartChild;
}

/** Each source module keeps its own `import.meta.url` (see `setup`). */
export const sourceModuleUrls: esbuild.Plugin = {
  name: 'source-module-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};
