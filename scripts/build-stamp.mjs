// Records what `npm run build` built dist/ from, and tells `prepare` when dist/ is already current.
// Why: the first `npx cohort …` in a clone installs the clone into npm's npx cache (npm 11 runs a
// package's own bin that way), which runs its `prepare` script again, silently: a whole second
// build (tsc, esbuild) of seconds to tens of seconds right after `npm install` built the same
// sources. With a stamp, `prepare` builds only when an input changed.
//
//   node scripts/build-stamp.mjs write     after a build: save the inputs' hash in dist/
//   node scripts/build-stamp.mjs current   exit 0 when dist/ was built from the inputs as they are
//
// `--root DIR` names another package folder (tests).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The files a build reads besides the installed packages (whose versions the lockfile names). */
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/bundle.mjs',
  'scripts/build-web.mjs',
  'scripts/build-stamp.mjs',
];
const INPUT_FOLDERS = ['src'];
const STAMP = join('dist', '.build-stamp');

/** Every file under `dir`, sorted, so that a file added, removed or renamed changes the hash. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** A hash of the build's inputs under `root`: each file's path and content. */
export function inputsHash(root) {
  const hash = createHash('sha256');
  const files = [
    ...INPUT_FILES.map((file) => join(root, file)).filter((file) => existsSync(file)),
    ...INPUT_FOLDERS.flatMap((folder) => filesUnder(join(root, folder))),
  ];
  for (const file of files)
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

/** Whether dist/ under `root` holds a stamp of the inputs as they are now. */
export function isCurrent(root) {
  const stamp = join(root, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsHash(root);
}

/** Saves the inputs' hash in dist/ under `root`: call it after a build succeeded. */
export function writeStamp(root) {
  writeFileSync(join(root, STAMP), `${inputsHash(root)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const usage = 'usage: node scripts/build-stamp.mjs write|current [--root DIR]';
  let parsed;
  try {
    parsed = parseArgs({ options: { root: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    console.error(`build-stamp: ${error.message}\n${usage}`);
    process.exit(2);
  }
  const root = parsed.values.root ?? fileURLToPath(new URL('../', import.meta.url));
  const [command] = parsed.positionals;
  if (command === 'write') writeStamp(root);
  else if (command === 'current') {
    if (!isCurrent(root)) process.exit(1);
    console.log('dist/ is current with the sources: not built again (`npm run build` builds).');
  } else {
    console.error(usage);
    process.exit(2);
  }
}
