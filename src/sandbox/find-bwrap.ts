import { findExecutable } from './find-executable.js';

/** What a refused bash call says when bubblewrap is missing: how to install it, or opt out. */
export const BWRAP_INSTALL_HINT =
  'bash runs inside a bubblewrap sandbox and bubblewrap (bwrap) was not found. Install it ' +
  '(Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; ' +
  'Arch: sudo pacman -S bubblewrap) or point sandbox.bwrapPath at it. To run commands without ' +
  'a sandbox anyway, opt out explicitly: COHORT_SANDBOX=off or "sandbox": { "enabled": false } ' +
  'in cohort.config.json.';

/**
 * The path of bubblewrap: `configured` when given (and executable), else the first `bwrap` on
 * PATH, else `/usr/bin/bwrap`; undefined when there is none (Linux without the package, macOS).
 *
 * @example
 * findBwrap(undefined, process.env); // '/usr/bin/bwrap'
 */
export function findBwrap(
  configured: string | undefined,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (process.platform !== 'linux') return undefined;
  return findExecutable('bwrap', { configured, env, last: ['/usr/bin', '/usr/local/bin'] });
}
