import { spawn, spawnSync } from 'node:child_process';

/**
 * Makes a named pipe (FIFO) at `path` with a writer process that writes `text` into it once a
 * reader opens it, so code that wrongly reads the pipe gets `text` instead of blocking the test
 * for ever; the returned function stops the writer. For tests of code that must refuse pipes.
 *
 * @example
 * const stop = namedPipe('/tmp/x/cohort.config.json', '{}');
 * try { expect(() => loadConfig({ cwd: '/tmp/x' })).toThrow(/named pipe/); } finally { stop(); }
 */
export function namedPipe(path: string, text: string): () => void {
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${String(made.stderr)}`);
  const writer = spawn('sh', ['-c', 'printf %s "$1" > "$2"', 'sh', text, path], {
    stdio: 'ignore',
  });
  return () => {
    writer.kill('SIGKILL');
  };
}
