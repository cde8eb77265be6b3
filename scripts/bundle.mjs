// Bundles the library and the CLI with esbuild into dist/index.js and dist/cli/main.js (shared
// code in dist/chunks/), over tsc's modules of the same name. Runs after `tsc` in `npm run build`.
// Why: loading cohort's ~280 modules one by one (resolve, read, compile each) was most of
// `import('cohort')`; a handful of files load in a fraction of the time. Packages stay external,
// but for zod and the AI SDK's providers (see below), and each lazily loaded command or engine
// stays a chunk of its own, loaded on first use as before.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

// Packages stay external, except zod and the AI SDK's providers (which import zod): every entry
// of the zod package loads its ~60 locales (100 modules, ~70 ms of `import('cohort')`); bundled,
// only what cohort uses loads. A user's schemas still run on the user's zod: zod 4 recognises a
// schema by its `_zod` internals, not by the copy that built it (src/bundle-zod.test.ts).
// Bundled too, the packages `import('cohort')` loads: hono (34 modules, for `createServer`, which
// returns its app at once) and stemmer (the tokenizer's). Resolving, reading and linking them one
// by one was a sixth of the import (picomatch and tinyglobby, with Node's CommonJS loader for
// picomatch, are loaded on first use instead: see match-rule.ts and the glob and grep tools), so
// `import('cohort')` loads cohort's files and Node's built-ins only (src/bundle.test.ts). hono's
// values cross no copy's identity: its app, context and middleware work with a user's hono (it
// checks no `instanceof` of its own classes; src/bundle-hono.test.ts); stemmer is a function.
const pkg = JSON.parse(readFileSync(path('package.json'), 'utf8'));
const loadedAtImport = new Set(['hono', 'stemmer']);
const bundled = (name) => name === 'zod' || name.startsWith('@ai-sdk/') || loadedAtImport.has(name);
const external = Object.keys(pkg.dependencies)
  .filter((name) => !bundled(name))
  .flatMap((name) => [name, `${name}/*`]);

// cohort's copy of zod is its own (a user's schemas run on the user's zod, which interoperates
// through zod's shared `_zod` internals): it carries English messages only, not `z.locales`' 60
// other languages, which a namespace re-export would otherwise keep whole.
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? {
            path: fileURLToPath(new URL('../locales/en.js', pathToFileURL(args.importer))),
            namespace: 'zod-locales',
          }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

// The AI SDK's providers write `import { z as z3 } from "zod/v4"`: a namespace taken as a value,
// which esbuild keeps whole (all of zod, ~390 KB, compiled by `import('cohort')` in the chunk the
// providers share with cohort's schemas). Written `import * as z3 from "zod/v4"`, the same
// bindings, it keeps only the parts cohort and the providers call. cohort's own modules import
// zod the same way (`import * as z from 'zod'`).
const zodNamespaceImports = {
  name: 'zod-namespace-imports',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]@ai-sdk[\\/].*\.m?js$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replace(
        /import \{ z(?: as (\w+))? \} from "zod\/v4";/g,
        (_, name) => `import * as ${name ?? 'z'} from "zod/v4";`,
      ),
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

await esbuild.build({
  entryPoints: {
    index: path('src/index.ts'),
    'cli/main': path('src/cli/main.ts'),
    // `cohort serve`'s first-start child (src/cli/first-start.ts): bundled with the same
    // fingerprint, so the router and the index it saves are the ones the server loads.
    'cli/first-start-child': path('src/cli/first-start-child.ts'),
  },
  outdir: path('dist/'),
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [englishOnlyZod, zodNamespaceImports],
  tsconfig: path('tsconfig.build.json'),
  define: { COHORT_BUNDLE_FINGERPRINT: JSON.stringify(fingerprint) },
  allowOverwrite: true,
  logLevel: 'warning',
});
console.log(`library and CLI bundled into ${path('dist/')}`);
