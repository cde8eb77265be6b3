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

const probes = new Map<string, boolean>();

/** Whether `bwrap args -- true` succeeds here, found by running it once; remembered per path and args. */
function bwrapAccepts(bwrap: string, args: readonly string[]): boolean {
  const key = [bwrap, ...args].join('\0');
  let supported = probes.get(key);
  if (supported === undefined) {
    const probe = nodeChildProcess().spawnSync(bwrap, [...args, '--', 'true'], {
      stdio: 'ignore',
      timeout: 10_000,
    });
    supported = probe.status === 0;
    probes.set(key, supported);
  }
  return supported;
}

/**
 * True when the bubblewrap at `bwrap` can run a sandbox in a user namespace of its own with
 * further user namespaces disabled (`--unshare-user --disable-userns`, bubblewrap 0.8+, and a
 * kernel that allows it), found by running it once; remembered per path.
 *
 * @example
 * bwrapDisablesUserNamespaces('/usr/bin/bwrap'); // true on bubblewrap 0.8 or later
 */
export function bwrapDisablesUserNamespaces(bwrap: string): boolean {
  return bwrapAccepts(bwrap, [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--ro-bind',
    '/',
    '/',
  ]);
}

/**
 * True when the bubblewrap at `bwrap` can give a tmpfs a size (`--size`, bubblewrap 0.10, and
 * some distributions' 0.8 builds), found by running it once; remembered per path.
 *
 * @example
 * bwrapSizesTmpfs('/usr/bin/bwrap'); // true when `bwrap --help` lists --size
 */
export function bwrapSizesTmpfs(bwrap: string): boolean {
  return bwrapAccepts(bwrap, [
    '--unshare-all',
    '--ro-bind',
    '/',
    '/',
    '--size',
    '1048576',
    '--tmpfs',
    '/tmp',
  ]);
}
