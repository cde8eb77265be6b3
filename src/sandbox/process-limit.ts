import {
  mkdirSync,
  readFileSync,
  readdirSync,
  rmdirSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/** How the process count of one sandboxed call is bounded. */
export interface ProcessLimit {
  /** `cgroup`: a pids cgroup (works for root too); `rlimit`: RLIMIT_NPROC; `none`: root without a writable cgroup. */
  kind: 'cgroup' | 'rlimit' | 'none';
  /** The `cgroup.procs` file the launcher joins before it starts bubblewrap (cgroup only). */
  procsFile?: string;
  /** RLIMIT_NPROC to set inside (rlimit only). */
  nproc?: number;
  /** Removes the cgroup once every process in it is gone. */
  release(): void;
}

const CGROUP_ROOT = '/sys/fs/cgroup';

/** The pids cgroup folder this process lives in: v1 `pids` hierarchy, or the v2 unified one. */
function ownPidsCgroup(): string | undefined {
  let lines: string[];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
  } catch {
    return undefined;
  }
  for (const line of lines) {
    const [, controllers = '', path = '/'] = line.split(':');
    if (controllers.split(',').includes('pids')) return join(CGROUP_ROOT, 'pids', path);
  }
  const unified = lines.find((line) => line.startsWith('0::'));
  if (unified && existsSync(join(CGROUP_ROOT, 'cgroup.controllers')))
    return join(CGROUP_ROOT, unified.slice(3));
  return undefined;
}

/** Processes of the current user right now (RLIMIT_NPROC counts them all, not only ours). */
function userProcessCount(): number {
  const uid = process.getuid?.() ?? 0;
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const match = /^Uid:\s+(\d+)/m.exec(status);
      const threads = /^Threads:\s+(\d+)/m.exec(status);
      if (match && Number(match[1]) === uid) count += Number(threads?.[1] ?? 1);
    } catch {
      // exited meanwhile
    }
  }
  return count;
}

/**
 * A limit of `max` processes for one sandboxed call. A pids cgroup is used when this process may
 * create one (root in most containers, or a delegated cgroup): RLIMIT_NPROC does not bind root.
 * Otherwise RLIMIT_NPROC, set to the user's current count plus `max` (it counts every process of
 * the user). Root without a writable cgroup gets no limit (`kind: 'none'`), which callers report.
 *
 * @example
 * const limit = createProcessLimit(256);
 * // ...run the sandbox, joining limit.procsFile...
 * limit.release();
 */
export function createProcessLimit(max: number): ProcessLimit {
  const parent = ownPidsCgroup();
  if (parent) {
    const dir = join(parent, `cohort-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      mkdirSync(dir);
      try {
        writeFileSync(join(dir, 'pids.max'), String(max));
        return {
          kind: 'cgroup',
          procsFile: join(dir, 'cgroup.procs'),
          release: () => releaseCgroup(dir),
        };
      } catch {
        rmdirSync(dir);
      }
    } catch {
      // not writable here: fall back to the rlimit
    }
  }
  if (process.getuid?.() === 0) return { kind: 'none', release: () => undefined };
  return { kind: 'rlimit', nproc: userProcessCount() + max, release: () => undefined };
}

/** Removes a cgroup; its last processes may take a moment to be reaped after the kill. */
function releaseCgroup(dir: string, attempt = 0): void {
  try {
    rmdirSync(dir);
  } catch {
    if (attempt < 20) setTimeout(() => releaseCgroup(dir, attempt + 1), 50).unref();
  }
}
