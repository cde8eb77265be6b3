// Bundles the library and the CLI with esbuild into dist/index.js and dist/cli/main.js (shared
// code in dist/chunks/), over tsc's modules of the same name. Runs after `tsc` in `npm run build`.
// Why: loading cohort's ~280 modules one by one (resolve, read, compile each) was most of
// `import('cohort')`; a handful of files load in a fraction of the time. Packages stay external
// (users share one zod, one AI SDK), and each lazily loaded command or engine stays a chunk of its
// own, loaded on first use as before.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { sourceFingerprint } from '../dist/store/source-fingerprint.js';

const root = new URL('../', import.meta.url);
const path = (relative) => fileURLToPath(new URL(relative, root));

// The caches keyed by code (saved index, trained router) hash folders of modules, which the bundle
// does not have: it gets a hash of every source file instead (see source-fingerprint.ts).
const fingerprint = createHash('sha1')
  .update(sourceFingerprint(new URL('src/', root)))
  .update(esbuild.version)
  .digest('hex');

await esbuild.build({
  entryPoints: { index: path('src/index.ts'), 'cli/main': path('src/cli/main.ts') },
  outdir: path('dist/'),
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  tsconfig: path('tsconfig.build.json'),
  define: { COHORT_BUNDLE_FINGERPRINT: JSON.stringify(fingerprint) },
  allowOverwrite: true,
  logLevel: 'warning',
});
console.log(`library and CLI bundled into ${path('dist/')}`);
