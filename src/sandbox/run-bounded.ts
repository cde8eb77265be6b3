import type { ChildProcess } from 'node:child_process';
import { timerDelay } from '../bounded-call/index.js';
import { stdioWithoutInherited } from './inherited-fds.js';
import { nodeChildProcess } from '../builtins/index.js';

/** What a bounded process run produced. */
export interface BoundedRun {
  /** Exit code; null when killed. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Text written to fd 3 (code runs report their result there). */
  extra: string;
  timedOut: boolean;
  aborted: boolean;
  /** Could not start at all (the message). */
  spawnError?: string;
}

/** Options of {@link runBounded}. */
export interface BoundedRunOptions {
  env: Record<string, string>;
  cwd: string;
  timeoutMs: number;
  /** Characters of stdout and of stderr kept; the rest is dropped while reading. */
  keepChars: number;
  input?: string;
  signal?: AbortSignal;
}

/**
 * Runs `file args` as the leader of its own process group and kills the whole group on timeout or
 * abort (SIGKILL). For a bubblewrap sandbox the group holds bwrap, whose PID-namespace init dies
 * with it (`--die-with-parent`), which takes every process inside, `setsid` ones included.
 * Output is read with a bound so a command printing gigabytes cannot exhaust memory.
 *
 * @example
 * const run = await runBounded('/bin/echo', ['hi'], { env: {}, cwd: '/', timeoutMs: 1000, keepChars: 1000 });
 */
export function runBounded(
  file: string,
  args: readonly string[],
  options: BoundedRunOptions,
): Promise<BoundedRun> {
  return new Promise((resolve) => {
    const empty = { exitCode: null, stdout: '', stderr: '', extra: '', timedOut: false };
    if (options.signal?.aborted) {
      resolve({ ...empty, aborted: true });
      return;
    }
    // Nothing cohort's own parent left open reaches the command (bwrap closes no descriptor).
    const { stdio, close } = stdioWithoutInherited([
      options.input === undefined ? 'ignore' : 'pipe',
      'pipe',
      'pipe',
      'pipe',
    ]);
    let child: ChildProcess;
    try {
      child = nodeChildProcess().spawn(file, args, {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio,
      });
    } finally {
      close();
    }
    const out = { stdout: '', stderr: '', extra: '' };
    // Decoded as a stream (Node's own decoder, as a first start relays its child's output): a
    // read may end inside a multi-byte character, which decoding each chunk alone turned into two
    // U+FFFD.
    const collect = (stream: NodeJS.ReadableStream | null | undefined, key: keyof typeof out) => {
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => {
        if (out[key].length < options.keepChars) out[key] += text;
      });
    };
    collect(child.stdout, 'stdout');
    collect(child.stderr, 'stderr');
    const fd3 = child.stdio[3] as NodeJS.ReadableStream | null;
    collect(fd3, 'extra');
    fd3?.on('error', () => undefined);
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input);
    }
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const finish = (exitCode: number | null, spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: timedOut || aborted ? null : exitCode,
        ...out,
        timedOut,
        aborted,
        ...(spawnError ? { spawnError } : {}),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
      // A process that escaped the group (only possible unsandboxed) may hold the pipes open.
      setTimeout(() => finish(null), 1000).unref();
    }, timerDelay(options.timeoutMs));
    const onAbort = () => {
      aborted = true;
      killGroup();
      finish(null);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => finish(null, error.message));
    child.on('exit', (code) => {
      // The command is over: whatever it left behind in its group goes too, and a process that
      // left the group (possible only unsandboxed) is not waited for beyond a moment.
      killGroup();
      setTimeout(() => finish(code), 500).unref();
    });
    child.on('close', (code) => finish(code));
  });
}
