import { homedir } from 'node:os';
import type { LookupFunction } from 'node:net';
import type { SandboxSettings } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { bwrapArgs, type SandboxPlan } from './bwrap-args.js';
import { resolveDenyPaths } from './deny-paths.js';
import {
  BWRAP_INSTALL_HINT,
  bwrapDisablesUserNamespaces,
  bwrapSizesTmpfs,
  findBwrap,
} from './find-bwrap.js';
import { startAllowListProxy, PROXY_BRIDGE_SOURCE, SANDBOX_PROXY_PORT } from './network-proxy.js';
import { createProcessLimit } from './process-limit.js';
import { watchDisk, type DiskLimitHit } from './disk-quota.js';
import { neutralGitEnv } from './neutral-git.js';
import { guardProtectedEntries, type Quarantined } from './protected-entries.js';
import { runBounded, type BoundedRun } from './run-bounded.js';

/** How long the placeholders of a killed sandbox outlive the kill (see `guardProtectedEntries`). */
const KILLED_SANDBOX_GRACE_MS = 1000;

/** PATH used when the parent process has none. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Hard limits of one sandboxed run beyond its wall time. */
export interface SandboxLimits {
  /** Address space per process, in MB (RLIMIT_AS). */
  memoryMb?: number;
  /** CPU seconds per process (RLIMIT_CPU). */
  cpuSeconds?: number;
  /** Largest file a process may write, in MB (RLIMIT_FSIZE). */
  fileMb?: number;
}

/** One command to run in a {@link Sandbox}. */
export interface SandboxCommand {
  /** argv: `['/bin/bash', '-c', 'npm test']`. */
  argv: string[];
  timeoutMs: number;
  keepChars: number;
  /** Text for the process's stdin. */
  input?: string;
  limits?: SandboxLimits;
  /** Extra variables (on top of the scrubbed environment). */
  env?: Record<string, string>;
  signal?: AbortSignal;
}

/** A confined place to run commands: one workspace, its deny list and its network rule. */
export interface Sandbox {
  /** `bwrap` when confined; `none` when the user opted out. */
  readonly kind: 'bwrap' | 'none';
  /** How the process count is bounded (`cgroup`, `rlimit`, or `none`). */
  readonly processLimit: string;
  /** How the memory of a whole call is bounded (`cgroup`, or `none`). */
  readonly memoryLimit: string;
  run(command: SandboxCommand): Promise<SandboxRun>;
}

/** What a sandboxed command produced. */
export interface SandboxRun extends BoundedRun {
  /** The call reached `sandbox.maxMemoryMb` (the kernel killed a process of it). */
  memoryExceeded: boolean;
  /**
   * The call was killed at a disk bound of its workspace's file system: `bytes` past
   * `sandbox.maxDiskMb`, `files` past `sandbox.maxFiles`, `reserve` when it left the disk almost
   * full (see `watchDisk`); absent when none.
   */
  diskExceeded?: DiskLimitHit;
  /**
   * Protected entries the command created in subfolders (`pkg/.git`, `a/.mcp.json`), each moved
   * aside to a name nothing trusts (see `GuardedEntries.quarantine`); absent when none.
   */
  quarantined?: Quarantined[];
}

/**
 * The environment a sandboxed command sees: PATH, HOME (the workspace), LANG and TERM only, so API
 * keys, tokens and database URLs of the parent process never reach commands a model writes.
 *
 * @example
 * scrubbedEnv('/repo'); // { PATH: '/usr/bin:/bin', HOME: '/repo', LANG: 'C.UTF-8', TERM: 'dumb' }
 */
export function scrubbedEnv(
  home: string,
  parent: Record<string, string | undefined> = process.env,
): Record<string, string> {
  return {
    PATH: parent.PATH ?? FALLBACK_PATH,
    HOME: home,
    LANG: parent.LANG ?? 'C.UTF-8',
    TERM: 'dumb',
  };
}

/** Options of {@link createSandbox}. */
export interface CreateSandboxOptions {
  /** The workspace (or scratch) folder: the only writable place, and the working folder. */
  root: string;
  settings: SandboxSettings;
  /** Home folder for `~/…` deny entries (tests). */
  home?: string;
  /** The parent environment PATH and LANG come from (tests). */
  parentEnv?: Record<string, string | undefined>;
  /** Ignore `settings.allowedHosts`: no network at all (code runs). */
  noNetwork?: boolean;
  /** Show only these host paths instead of the whole file system (code runs; see `SandboxPlan`). */
  visible?: string[];
  /**
   * Keep `root`'s protected entries (`.git`, `cohort.config.json`, `.mcp.json`, `.claude`,
   * `.cohort`, `skills`) read-only and uncreatable (default true; see
   * {@link guardProtectedEntries}). Off only for a scratch folder cohort never starts in.
   */
  guardProjectEntries?: boolean;
  /**
   * How the proxy resolves an allowed host before connecting: one that refuses private and
   * loopback addresses (the tools' `createGuardedLookup`), so an allowed name rebound to 127.0.0.1
   * or 10.x is not reached. Needed when `allowedHosts` is set, unless
   * `settings.allowPrivateAddresses`.
   */
  connectLookup?: LookupFunction;
}

/**
 * A sandbox for `root`. With `settings.enabled` (the default) commands run under bubblewrap (see
 * {@link bwrapArgs}) with a process limit, a scrubbed environment and, when `allowedHosts` is set,
 * network only through a proxy that enforces the allow-list. Without bubblewrap that is an error
 * saying how to install it; `enabled: false` is the explicit opt-out (unconfined, as a plain shell,
 * with no program a workspace's git config names run by git: {@link neutralGitEnv}).
 *
 * @example
 * const sandbox = createSandbox({ root: '/repo', settings: config.sandbox });
 * const run = await sandbox.run({ argv: ['/bin/bash', '-c', 'ls'], timeoutMs: 10_000, keepChars: 30_000 });
 */
export function createSandbox(options: CreateSandboxOptions): Sandbox {
  const { root, settings } = options;
  const parentEnv = options.parentEnv ?? process.env;
  const env = scrubbedEnv(root, parentEnv);
  if (!settings.enabled) {
    return {
      kind: 'none',
      processLimit: 'none',
      memoryLimit: 'none',
      run: async (command) => ({
        ...(await runBounded(command.argv[0] ?? '/bin/sh', command.argv.slice(1), {
          env: { ...env, ...command.env, ...(await neutralGitEnv(root)) },
          cwd: root,
          timeoutMs: command.timeoutMs,
          keepChars: command.keepChars,
          ...(command.input === undefined ? {} : { input: command.input }),
          ...(command.signal ? { signal: command.signal } : {}),
        })),
        memoryExceeded: false,
      }),
    };
  }
  const bwrap = findBwrap(settings.bwrapPath, parentEnv);
  if (!bwrap) throw new CohortError('forbidden', BWRAP_INSTALL_HINT);
  const home = options.home ?? homedir();
  const allowedHosts = options.noNetwork ? [] : settings.allowedHosts;
  if (allowedHosts.length > 0 && !options.connectLookup && !settings.allowPrivateAddresses)
    throw new CohortError(
      'internal',
      'A sandbox with sandbox.allowedHosts needs a connectLookup that refuses private addresses.',
    );
  const proxyOptions = options.connectLookup ? { lookup: options.connectLookup } : {};
  const limitKinds = describeLimitKind();
  return {
    kind: 'bwrap',
    processLimit: limitKinds.processes,
    memoryLimit: limitKinds.memory,
    async run(command) {
      const denyRead = await resolveDenyPaths(settings.denyRead, { workspace: root, home });
      const guarded =
        options.guardProjectEntries === false
          ? { readOnly: [], pinned: [], release: () => undefined, quarantine: async () => [] }
          : guardProtectedEntries(root);
      let killed = true; // until the run says it ended by itself
      let limit: ReturnType<typeof createProcessLimit> | undefined;
      let proxy: Awaited<ReturnType<typeof startAllowListProxy>> | undefined;
      try {
        limit = createProcessLimit(settings.maxProcesses, { memoryMb: settings.maxMemoryMb });
        proxy =
          allowedHosts.length > 0
            ? await startAllowListProxy(allowedHosts, proxyOptions)
            : undefined;
        const proxyUrl = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
        const plan: SandboxPlan = {
          cwd: root,
          writable: [root, ...guarded.pinned],
          denyRead,
          env: {
            ...env,
            ...command.env,
            ...(proxy
              ? {
                  HTTP_PROXY: proxyUrl,
                  HTTPS_PROXY: proxyUrl,
                  http_proxy: proxyUrl,
                  https_proxy: proxyUrl,
                  NO_PROXY: '',
                }
              : {}),
          },
          readOnly: [...(proxy ? [proxy.socketDir] : []), ...guarded.readOnly],
          ...(options.visible ? { visible: options.visible } : {}),
          disableUserNamespaces: bwrapDisablesUserNamespaces(bwrap),
          // /tmp holds at most what the call may use in all (its files are memory).
          ...(bwrapSizesTmpfs(bwrap) ? { tmpSizeMb: settings.maxMemoryMb } : {}),
        };
        const inner = limitsPrelude(command.limits, limit.nproc, proxy?.socketPath);
        const args = bwrapArgs(plan, ['/bin/sh', '-c', inner, 'sandbox', ...command.argv]);
        // The launcher joins the call's cgroups first, so every process bwrap starts is counted.
        const joins = limit.procsFiles.map((procs) => `echo $$ > ${shellQuote(procs)} || exit 125`);
        const [file, launcherArgs] =
          joins.length > 0
            ? ['/bin/sh', ['-c', `${joins.join('; ')}; exec "$@"`, 'launcher', bwrap, ...args]]
            : [bwrap, args];
        // RLIMIT_FSIZE bounds one file; the call's whole growth of the disk is watched here and
        // the call killed past it, as a cancellation kills it.
        const diskStop = new AbortController();
        const disk = watchDisk(root, settings, () => diskStop.abort());
        const run = await runBounded(file, launcherArgs, {
          // bwrap's own environment shows as /proc/1/environ inside: it gets the scrubbed one.
          env,
          cwd: root,
          timeoutMs: command.timeoutMs,
          keepChars: command.keepChars,
          ...(command.input === undefined ? {} : { input: command.input }),
          signal: command.signal
            ? AbortSignal.any([command.signal, diskStop.signal])
            : diskStop.signal,
        }).finally(() => disk.stop());
        const diskExceeded = command.signal?.aborted ? undefined : disk.hit();
        killed = run.timedOut || run.aborted;
        const quarantined = await guarded.quarantine();
        return {
          ...run,
          aborted: run.aborted && diskExceeded === undefined,
          memoryExceeded: limit.memoryExceeded(),
          ...(diskExceeded ? { diskExceeded } : {}),
          ...(quarantined.length > 0 ? { quarantined } : {}),
        };
      } finally {
        limit?.release();
        await proxy?.close();
        // A killed bwrap takes its namespace with it, but its processes die a moment after the
        // kill returns; the placeholders stay until then (a mount whose file is removed is gone).
        // So are the entries they may still create in subfolders.
        if (killed)
          setTimeout(
            () =>
              void guarded
                .quarantine()
                .catch(() => [])
                .finally(() => guarded.release()),
            KILLED_SANDBOX_GRACE_MS,
          );
        else guarded.release();
      }
    },
  };
}

let limitKind: { processes: string; memory: string } | undefined;
/** Which process and memory limits this machine gives (probed once). */
function describeLimitKind(): { processes: string; memory: string } {
  if (limitKind === undefined) {
    const probe = createProcessLimit(16, { memoryMb: 64 });
    limitKind = { processes: probe.kind, memory: probe.memory };
    probe.release();
  }
  return limitKind;
}

/**
 * The shell text run first inside the sandbox: resource limits (inherited by everything the
 * command starts), the network bridge when a proxy is in use, then `exec` of the command.
 */
export function limitsPrelude(
  limits: SandboxLimits | undefined,
  nproc: number | undefined,
  proxySocket: string | undefined,
): string {
  const lines: string[] = [];
  // RLIMIT_NPROC is `ulimit -u` in bash but `-p` in dash (Debian's and Ubuntu's /bin/sh), which
  // refuses `-u` as an illegal option: without the second form every sandboxed command of a user
  // with no cgroup of their own exited 125 before it started.
  if (nproc !== undefined)
    lines.push(`ulimit -u ${nproc} 2>/dev/null || ulimit -p ${nproc} || exit 125`);
  if (limits?.memoryMb) lines.push(`ulimit -v ${limits.memoryMb * 1024} || exit 125`);
  if (limits?.cpuSeconds) lines.push(`ulimit -t ${Math.ceil(limits.cpuSeconds)} || exit 125`);
  // POSIX sh counts `ulimit -f` in 512-byte blocks (dash, and bash run as sh), `-v` in KiB.
  if (limits?.fileMb) lines.push(`ulimit -f ${limits.fileMb * 2048} || exit 125`);
  if (proxySocket) {
    const node = JSON.stringify(process.execPath);
    lines.push(
      `${node} -e ${shellQuote(PROXY_BRIDGE_SOURCE)} ${shellQuote(proxySocket)} ${SANDBOX_PROXY_PORT} &`,
      `i=0; while [ ! -e /tmp/.cohort-proxy-ready ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done`,
    );
  }
  lines.push('exec "$@"');
  return lines.join('\n');
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
