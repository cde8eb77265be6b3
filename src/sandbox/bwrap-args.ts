import { lstatSync, statSync } from 'node:fs';

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
}

/** System folders whose sockets (D-Bus, Docker, PostgreSQL) must not be reachable inside. */
const SOCKET_FOLDERS = ['/run', '/var/run'];

const isRealFolder = (path: string) => {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * bubblewrap's arguments for `plan`: every namespace unshared (no network, own PID namespace so
 * `/proc` shows only the sandbox, own IPC and UTS), every capability dropped, the host file system
 * read-only, a private `/tmp`, `/run` emptied (host sockets unreachable), `writable` bound
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
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  for (const folder of SOCKET_FOLDERS) if (isRealFolder(folder)) args.push('--tmpfs', folder);
  for (const path of plan.writable) args.push('--bind', path, path);
  for (const path of plan.readOnly ?? []) args.push('--ro-bind', path, path);
  for (const path of plan.denyRead) {
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
