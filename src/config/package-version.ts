import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.js';

/** cohort's version from its package.json ('0.0.0' when it cannot be read). */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
