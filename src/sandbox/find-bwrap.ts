import { findExecutable } from './find-executable.js';
import { nodeChildProcess } from '../builtins/index.js';

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

const userNamespaceSupport = new Map<string, boolean>();

/**
 * True when the bubblewrap at `bwrap` can run a sandbox in a user namespace of its own with
 * further user namespaces disabled (`--unshare-user --disable-userns`, bubblewrap 0.8+, and a
 * kernel that allows it), found by running it once; remembered per path.
 *
 * @example
 * bwrapDisablesUserNamespaces('/usr/bin/bwrap'); // true on bubblewrap 0.8 or later
 */
export function bwrapDisablesUserNamespaces(bwrap: string): boolean {
  let supported = userNamespaceSupport.get(bwrap);
  if (supported === undefined) {
    const probe = nodeChildProcess().spawnSync(
      bwrap,
      ['--unshare-all', '--unshare-user', '--disable-userns', '--ro-bind', '/', '/', '--', 'true'],
      { stdio: 'ignore', timeout: 10_000 },
    );
    supported = probe.status === 0;
    userNamespaceSupport.set(bwrap, supported);
  }
  return supported;
}
