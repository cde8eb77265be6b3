import { spawn, type ChildProcess } from 'node:child_process';
import { snapshotCacheEnv } from './fresh-folder-snapshot.js';
import { testCli } from './test-cli.js';

/** A `cohort serve` running as its own OS process. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far (its logs). */
  stderr(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
  /** SIGKILL, then waits for it to exit. */
  kill(): Promise<void>;
}

/**
 * Starts `cohort serve --port 0` from the sources (the run's bundle of them, see test-cli.ts; no
 * build needed) in `cwd` with only `env` (and
 * PATH, and the shared snapshot cache), and resolves once it prints its URL. Rejects with its stderr if it exits first.
 *
 * @example
 * const server = await startServeProcess({ DATABASE_URL: url }, workspace);
 * await fetch(`${server.url}/healthz`);
 * await server.stop();
 */
export function startServeProcess(
  env: Record<string, string>,
  cwd: string,
  timeoutMs = 60_000,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [testCli(), 'serve', '--port', '0'], {
    cwd,
    // The saved fresh folder is shared (see snapshotCacheEnv); `env` may still name another cache.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, ...snapshotCacheEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cohort serve did not start within ${timeoutMs} ms: ${err.slice(-600)}`));
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving the book assistant on (http:\/\/\S+)/.exec(out);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        child,
        stderr: () => err,
        alive: () => child.exitCode === null && child.signalCode === null,
        stop: () => signal('SIGTERM'),
        kill: () => signal('SIGKILL'),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cohort serve exited with ${code} before serving: ${err.slice(-600)}`));
    });
  });
}
