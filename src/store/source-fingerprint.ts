import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const fingerprints = new Map<string, string>();

/**
 * Replaced by `npm run build` in the bundle it makes (esbuild `define`, see scripts/bundle.mjs):
 * a hash of every source file bundled. The bundle has no folders of modules to hash, and any
 * change to its code changes it. Undefined when running the sources or tsc's modules.
 */
declare const COHORT_BUNDLE_FINGERPRINT: string | undefined;

/** Every module file under `dir` (tests left out), sorted, with its path relative to `dir`. */
function moduleFiles(dir: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...moduleFiles(join(dir, entry.name), path));
    else if (/\.(js|ts)$/.test(entry.name) && !/\.(test|d)\.(js|ts)$/.test(entry.name))
      files.push(path);
  }
  return files.sort();
}

/**
 * A hash of the code in a folder of modules (from `import.meta.url` of a module in it), computed
 * once per process: part of a build-cache key, so that a value saved by another version of the
 * code that built it (a new tokenizer, a retrained router) is built again rather than loaded.
 * Inside the bundle `npm run build` makes, it is the hash of all the bundled code instead.
 *
 * @example
 * const code = sourceFingerprint(new URL('.', import.meta.url));
 */
export function sourceFingerprint(folder: URL): string {
  if (typeof COHORT_BUNDLE_FINGERPRINT === 'string') return COHORT_BUNDLE_FINGERPRINT;
  const dir = fileURLToPath(folder);
  let fingerprint = fingerprints.get(dir);
  if (fingerprint === undefined) {
    const hash = createHash('sha1');
    for (const file of moduleFiles(dir))
      hash
        .update(`${file}\0`)
        .update(readFileSync(join(dir, file)))
        .update('\0');
    fingerprint = hash.digest('hex');
    fingerprints.set(dir, fingerprint);
  }
  return fingerprint;
}
