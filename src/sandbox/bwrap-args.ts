import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { isInsideAny } from './deny-paths.js';

/** What one sandboxed process may see and do. */
export interface SandboxPlan {
  /** The working folder (inside one of `writable`). */
  cwd: string;
  /** Folders mounted read-write (the workspace, a code run's scratch folder). */
  writable: string[];
  /** Real paths hidden: a folder becomes empty, a file reads as empty. */
  denyRead: string[];
  /** The whole environment of the sandboxed process. */
  env: Record<string, string>;
  /** Extra read-only mounts (the network proxy's socket folder). */
  readOnly?: string[];
  /**
   * The only host paths visible (read-only), instead of the whole file system: code that needs an
   * interpreter and nothing of the user's gets the system folders and not `/home`, `/root` or the
   * project. A path that is a symlink (`/bin` → `usr/bin`) is recreated as the same symlink.
   */
  visible?: string[];
  /**
   * Give the sandbox a user namespace of its own and forbid it to make more (bubblewrap 0.8+
   * `--disable-userns`): inside a new user namespace a process holds every capability over the
   * namespaces it creates, which opens kernel interfaces (mounts, netfilter) that all
   * capabilities dropped otherwise keep shut. Set only where bubblewrap supports it.
   */
  disableUserNamespaces?: boolean;
  /**
   * The size of the private `/tmp`, in MB (and of `/dev/shm`, at most {@link SHM_MB}); unsized
   * when absent (a bubblewrap without `--size`). An unsized tmpfs holds up to half the host's RAM,
   * and without a memory cgroup nothing else bounds what a command writes there.
   */
  tmpSizeMb?: number;
}

/** The size of the sandbox's `/dev/shm`, in MB: Docker's default (`--shm-size` 64m). */
export const SHM_MB = 64;

/**
 * The parts of the sandbox's own `/proc` that are the host kernel's, not the sandbox's: sysctls
 * (`kernel.core_pattern`, `vm.*`…), the SysRq trigger, IRQ and bus settings. They are mounted
 * read-only over the new `/proc`, as Docker and Flatpak do. A fresh `/proc` shows them writable to
 * uid 0, and dropping every capability does not stop root writing a file root owns: run as root,
 * `echo x > /proc/sys/kernel/core_pattern` in a command changed the host's core pattern (a `|prog`
 * pattern runs `prog` as root on the host at the next crash).
 */
export const HOST_KERNEL_PROC = [
  '/proc/sys',
  '/proc/sysrq-trigger',
  '/proc/irq',
  '/proc/bus',
  '/proc/fs',
  '/proc/acpi',
];

/** System folders whose sockets (D-Bus, Docker, PostgreSQL) must not be reachable inside. */
const SOCKET_FOLDERS = ['/run', '/var/run'];

const isRealFolder = (path: string) => {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The host's file system read-only, or only the `visible` paths of it (parents first). */
function hostView(visible: readonly string[] | undefined): string[] {
  if (visible === undefined) return ['--ro-bind', '/', '/'];
  const args: string[] = [];
  for (const path of [...new Set(visible)].sort((a, b) => a.length - b.length)) {
    let link: string | undefined;
    try {
      link = lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
    } catch {
      continue;
    }
    if (link === undefined) args.push('--ro-bind', path, path);
    else args.push('--symlink', link, path);
  }
  return args;
}

/** `--size` for the next `--tmpfs`, in bytes, when `mb` is given. */
const sized = (mb: number | undefined): string[] =>
  mb ? ['--size', String(mb * 1024 * 1024)] : [];

/**
 * bubblewrap's arguments for `plan`: every namespace unshared (no network, own PID namespace so
 * `/proc` shows only the sandbox, own IPC and UTS; the host kernel's settings in it read-only,
 * {@link HOST_KERNEL_PROC}), every capability dropped, the host file system
 * read-only (or only `plan.visible`), a private `/tmp` and `/dev/shm` (sized by `plan.tmpSizeMb`), `/dev` and
 * `/run` read-only (`/run` emptied: host sockets unreachable), `writable` bound
 * read-write, `denyRead` masked, and the sandbox killed with its parent. `command` follows `--`.
 *
 * @example
 * spawn('bwrap', bwrapArgs(plan, ['/bin/bash', '-c', 'npm test']));
 */
export function bwrapArgs(plan: SandboxPlan, command: readonly string[]): string[] {
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-all',
    ...(plan.disableUserNamespaces ? ['--unshare-user', '--disable-userns'] : []),
    '--cap-drop',
    'ALL',
    ...hostView(plan.visible),
    // /dev is a tmpfs of bubblewrap's: read-only, so the only RAM-backed places a command writes
    // are /tmp and /dev/shm, both sized (device nodes are written on a read-only mount too).
    '--dev',
    '/dev',
    ...sized(plan.tmpSizeMb && Math.min(plan.tmpSizeMb, SHM_MB)),
    '--tmpfs',
    '/dev/shm',
    '--remount-ro',
    '/dev',
    '--proc',
    '/proc',
    // `-try`: a kernel without one of them (no ACPI) has nothing to protect there.
    ...HOST_KERNEL_PROC.flatMap((path) => ['--ro-bind-try', path, path]),
    ...sized(plan.tmpSizeMb),
    '--tmpfs',
    '/tmp',
  ];
  // Emptied to hide the host's sockets, and read-only: nothing a command writes belongs there.
  for (const folder of SOCKET_FOLDERS)
    if (isRealFolder(folder)) args.push('--tmpfs', folder, '--remount-ro', folder);
  for (const path of plan.writable) args.push('--bind', path, path);
  for (const path of plan.readOnly ?? []) args.push('--ro-bind', path, path);
  for (const path of plan.denyRead) {
    // A path the view does not show needs no mask (masking it would create it, empty).
    if (plan.visible && !isInsideAny(path, plan.visible)) continue;
    let folder: boolean;
    try {
      folder = statSync(path).isDirectory();
    } catch {
      continue;
    }
    if (folder) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  args.push('--chdir', plan.cwd, '--clearenv');
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
  args.push('--', ...command);
  return args;
}
