import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { sourceModuleUrls } from './cli-bundle.js';
import { testCli } from './test-cli.js';

/**
 * A script for a child process that imports cohort's sources (by their absolute `.ts` paths), as
 * one bundled file to run with `node FILE`: the same modules, run as the sources run (see
 * cli-bundle.ts), without tsx's compile and load of each of them at every start (2–3 s of CPU).
 * Bundled once per run and script text, next to the run's CLI bundle (whose `node_modules` link
 * resolves the packages).
 *
 * @example
 * const file = await sourceScript(`const { openStore } = await import(${JSON.stringify(STORE)}); …`);
 * spawn(process.execPath, [file]);
 */
export async function sourceScript(script: string): Promise<string> {
  const dir = join(testCli(), '..', 'scripts');
  const file = join(dir, `${createHash('sha1').update(script).digest('hex')}.mjs`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const built = await esbuild.build({
    stdin: { contents: script, loader: 'ts', resolveDir: dir, sourcefile: 'script.mts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [fileUrlImports, sourceModuleUrls],
    logLevel: 'warning',
  });
  // Renamed into place whole: another test file may be bundling the same script at this moment.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, built.outputFiles[0]!.contents);
  renameSync(partial, file);
  return file;
}

/** Scripts import the sources by path or by `file:` URL (as Node takes both); esbuild, paths only. */
const fileUrlImports: esbuild.Plugin = {
  name: 'file-url-imports',
  setup(build) {
    build.onResolve({ filter: /^file:/ }, (args) => ({ path: fileURLToPath(args.path) }));
  },
};
