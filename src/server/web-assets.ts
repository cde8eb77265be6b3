import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../config/index.js';
import { CohortError } from '../errors/index.js';

/** The web page's sources (the same path from the sources, the compiled modules and the bundle). */
export const WEB_SOURCE_DIR = packagePath('src', 'server', 'web') + '/';
/**
 * Where `npm run build` writes the page: `dist/web/` in the package. Run from the sources (tests,
 * tsx) it is `src/web/`, which does not exist, so the page is bundled from its sources and edits
 * show up without a build.
 */
export const WEB_DIST_DIR = import.meta.url.endsWith('.ts')
  ? fileURLToPath(new URL('../web/', import.meta.url))
  : packagePath('dist', 'web') + '/';

/** One file of the page, ready to serve. */
export interface WebAsset {
  body: string;
  type: string;
  etag: string;
}

/** The page: `index.html`, the bundled `app.js` and `app.css`, by URL path. */
export type WebAssets = Record<'/' | '/app.js' | '/app.css', WebAsset>;

const asset = (body: string, type: string): WebAsset => ({
  body,
  type,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
});

/**
 * Bundles the page's TypeScript into one minified ES module with esbuild (a build-time tool: it
 * is only needed when the page was not built ahead by `npm run build`).
 *
 * @example
 * const assets = await bundleWebAssets(WEB_SOURCE_DIR);
 */
export async function bundleWebAssets(sourceDir: string = WEB_SOURCE_DIR): Promise<WebAssets> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch (cause) {
    throw new CohortError(
      'not_found',
      'The web page is not built and esbuild is not installed: run `npm run build` in the cohort folder.',
      { cause },
    );
  }
  const result = await esbuild.build({
    entryPoints: [join(sourceDir, 'app.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const js = result.outputFiles[0]?.text ?? '';
  return {
    '/': asset(await readFile(join(sourceDir, 'index.html'), 'utf8'), 'text/html; charset=utf-8'),
    '/app.js': asset(js, 'text/javascript; charset=utf-8'),
    '/app.css': asset(
      await readFile(join(sourceDir, 'app.css'), 'utf8'),
      'text/css; charset=utf-8',
    ),
  };
}

/**
 * Writes the bundled page to `outDir` (`npm run build` calls this through scripts/build-web.mjs).
 *
 * @example
 * await writeWebAssets(WEB_SOURCE_DIR, 'dist/web');
 */
export async function writeWebAssets(sourceDir: string, outDir: string): Promise<void> {
  const assets = await bundleWebAssets(sourceDir);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'index.html'), assets['/'].body);
  await writeFile(join(outDir, 'app.js'), assets['/app.js'].body);
  await writeFile(join(outDir, 'app.css'), assets['/app.css'].body);
}

/**
 * The page to serve: the prebuilt files in `dist/web/` when `npm run build` made them, otherwise
 * bundled from the sources now (development, tests).
 */
export async function loadWebAssets(
  dirs: { distDir?: string; sourceDir?: string } = {},
): Promise<WebAssets> {
  const distDir = dirs.distDir ?? WEB_DIST_DIR;
  if (existsSync(join(distDir, 'app.js'))) {
    const read = (name: string) => readFile(join(distDir, name), 'utf8');
    return {
      '/': asset(await read('index.html'), 'text/html; charset=utf-8'),
      '/app.js': asset(await read('app.js'), 'text/javascript; charset=utf-8'),
      '/app.css': asset(await read('app.css'), 'text/css; charset=utf-8'),
    };
  }
  return bundleWebAssets(dirs.sourceDir ?? WEB_SOURCE_DIR);
}
