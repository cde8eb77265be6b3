import {
  mkdirSync,
  readFileSync,
  readdirSync,
  rmdirSync,
  statSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/** How the processes and memory of one sandboxed call are bounded. */
export interface ProcessLimit {
  /** `cgroup`: a pids cgroup (works for root too); `rlimit`: RLIMIT_NPROC; `none`: root without a writable cgroup. */
  kind: 'cgroup' | 'rlimit' | 'none';
  /** `cgroup`: the call's memory (tmpfs pages it writes included) is capped; `none`: not bounded here. */
  memory: 'cgroup' | 'none';
  /** The `cgroup.procs` files the launcher joins before it starts bubblewrap (one per hierarchy). */
  procsFiles: string[];
  /** RLIMIT_NPROC to set inside (rlimit only). */
  nproc?: number;
  /** True when the call's memory cgroup hit its cap (the kernel then kills a process in it). */
  memoryExceeded(): boolean;
  /** Removes the cgroups once every process in them is gone. */
  release(): void;
}

const CGROUP_ROOT = '/sys/fs/cgroup';

/** This process's cgroup folder for `controller`: its v1 hierarchy, or the v2 unified one. */
function ownCgroup(controller: 'pids' | 'memory'): { dir: string; v2: boolean } | undefined {
  let lines: string[];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
  } catch {
    return undefined;
  }
  for (const line of lines) {
    const [, controllers = '', path = '/'] = line.split(':');
    if (controllers.split(',').includes(controller))
      return { dir: join(CGROUP_ROOT, controller, path), v2: false };
  }
  const unified = lines.find((line) => line.startsWith('0::'));
  if (unified && existsSync(join(CGROUP_ROOT, 'cgroup.controllers')))
    return { dir: join(CGROUP_ROOT, unified.slice(3)), v2: true };
  return undefined;
}

/** The name of a call's cgroup: the cohort process's pid and a random part. */
const CALL_CGROUP = /^cohort-(\d+)-[0-9a-f]{8}$/;

/** The cgroup parents this process has swept (see {@link sweepStaleCgroups}). */
const swept = new Set<string>();

/** Whether process `pid` is gone. */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes the call cgroups under `parent` that a cohort killed mid-call (kill -9, a crash) left
 * behind: named for a process that is gone, unchanged for `minAgeMs`, and empty (the kernel
 * refuses to remove a cgroup that still has processes). A cohort that dies cannot release its
 * cgroups, and each stayed for good (five on the test machine after a day of killed tests).
 *
 * @example
 * sweepStaleCgroups('/sys/fs/cgroup/pids'); // ['/sys/fs/cgroup/pids/cohort-4242-0badcafe']
 */
export function sweepStaleCgroups(parent: string, minAgeMs = 60_000): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = Number(CALL_CGROUP.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid || !gone(pid)) continue;
    const dir = join(parent, name);
    try {
      if (Date.now() - statSync(dir).mtimeMs < minAgeMs) continue;
      rmdirSync(dir);
      removed.push(dir);
    } catch {
      // in use, or removed meanwhile
    }
  }
  return removed;
}

/** A fresh child cgroup of `parent` with `settings` written, or undefined when that is refused. */
function childCgroup(
  parent: string,
  settings: [file: string, value: string][],
): string | undefined {
  if (!swept.has(parent)) {
    swept.add(parent);
    sweepStaleCgroups(parent);
  }
  const dir = join(parent, `cohort-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  try {
    for (const [file, value] of settings) writeFileSync(join(dir, file), value);
    return dir;
  } catch {
    rmdirSync(dir);
    return undefined;
  }
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

/** Whether a memory cgroup recorded an out-of-memory kill or a hit of its cap. */
function hitMemoryCap(dir: string, v2: boolean): boolean {
  try {
    if (v2) return /^oom_kill [1-9]/m.test(readFileSync(join(dir, 'memory.events'), 'utf8'));
    const oom = /^oom_kill [1-9]/m.test(readFileSync(join(dir, 'memory.oom_control'), 'utf8'));
    return oom || Number(readFileSync(join(dir, 'memory.failcnt'), 'utf8')) > 0;
  } catch {
    return false;
  }
}

/**
 * Limits for one sandboxed call: at most `max` processes, and at most `memoryMb` of memory when
 * given. A pids cgroup is used when this process may create one (root in most containers, or a
 * delegated cgroup): RLIMIT_NPROC does not bind root. Otherwise RLIMIT_NPROC, set to the user's
 * current count plus `max` (it counts every process of the user). Root without a writable cgroup
 * gets no process limit (`kind: 'none'`), which callers report. Memory is capped by a memory
 * cgroup only: an address-space rlimit would break runtimes that reserve large virtual ranges
 * (Node, the JVM) while bounding nothing they write to the sandbox's RAM-backed /tmp.
 *
 * @example
 * const limit = createProcessLimit(256, { memoryMb: 4096 });
 * // ...run the sandbox, joining each of limit.procsFiles...
 * limit.release();
 */
export function createProcessLimit(max: number, options: { memoryMb?: number } = {}): ProcessLimit {
  const pids = ownCgroup('pids');
  const memory = options.memoryMb ? ownCgroup('memory') : undefined;
  const bytes = String((options.memoryMb ?? 0) * 1024 * 1024);
  const dirs: string[] = [];
  let kind: ProcessLimit['kind'] = 'none';
  let memoryDir: { dir: string; v2: boolean } | undefined;
  if (pids?.v2 && memory?.v2) {
    // One unified cgroup carries both limits (a process is in one v2 cgroup only); without the
    // memory controller delegated here, the process limit alone.
    const both = childCgroup(pids.dir, [
      ['pids.max', String(max)],
      ['memory.max', bytes],
      ['memory.swap.max', '0'],
    ]);
    const dir = both ?? childCgroup(pids.dir, [['pids.max', String(max)]]);
    if (dir) {
      dirs.push(dir);
      kind = 'cgroup';
      if (both) memoryDir = { dir: both, v2: true };
    }
  } else {
    const pidsDir = pids ? childCgroup(pids.dir, [['pids.max', String(max)]]) : undefined;
    if (pidsDir) {
      dirs.push(pidsDir);
      kind = 'cgroup';
    }
    const memDir = memory ? childCgroup(memory.dir, [['memory.limit_in_bytes', bytes]]) : undefined;
    if (memDir) {
      // Without a swap cap the kernel would page the excess out instead of stopping it.
      try {
        writeFileSync(join(memDir, 'memory.memsw.limit_in_bytes'), bytes);
      } catch {
        // no swap accounting on this kernel: the RAM cap holds alone
      }
      dirs.push(memDir);
      memoryDir = { dir: memDir, v2: false };
    }
  }
  if (kind === 'none' && process.getuid?.() !== 0) kind = 'rlimit';
  return {
    kind,
    memory: memoryDir ? 'cgroup' : 'none',
    procsFiles: dirs.map((dir) => join(dir, 'cgroup.procs')),
    ...(kind === 'rlimit' ? { nproc: userProcessCount() + max } : {}),
    memoryExceeded: () => (memoryDir ? hitMemoryCap(memoryDir.dir, memoryDir.v2) : false),
    release: () => dirs.forEach((dir) => releaseCgroup(dir)),
  };
}

/** Removes a cgroup; its last processes may take a moment to be reaped after the kill. */
function releaseCgroup(dir: string, attempt = 0): void {
  try {
    rmdirSync(dir);
  } catch {
    if (attempt < 20) setTimeout(() => releaseCgroup(dir, attempt + 1), 50).unref();
  }
}
