import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CohortError } from '../errors/index.js';

let root: string | undefined;

/**
 * The folder of cohort's own package.json: the nearest one above this module. Found by walking up
 * rather than by a fixed `../..`, because the module sits at a different depth as source
 * (`src/config/`), as compiled modules (`dist/config/`) and inside the bundle (`dist/`,
 * `dist/chunks/`) that `npm run build` makes.
 *
 * @example
 * join(packageRoot(), 'agents'); // the built-in book agents
 */
export function packageRoot(): string {
  return (root ??= findPackageRoot(dirname(fileURLToPath(import.meta.url))));
}

/**
 * The nearest folder holding a package.json at or above `start`.
 *
 * @example
 * findPackageRoot('/app/node_modules/cohort/dist/chunks'); // '/app/node_modules/cohort'
 */
export function findPackageRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new CohortError(
        'internal',
        `cohort's installation is incomplete: no package.json above ${start}. Reinstall cohort.`,
      );
    dir = parent;
  }
  return dir;
}

/**
 * A path inside cohort's package (see {@link packageRoot}).
 *
 * @example
 * packagePath('examples', 'physical-ai-book'); // the sample book
 */
export const packagePath = (...parts: string[]): string => join(packageRoot(), ...parts);
