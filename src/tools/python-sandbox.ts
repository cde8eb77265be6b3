import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PYTHON_SANDBOX_WORKER_SOURCE } from './python-sandbox-worker.js';

/** Default time limit of one code run (research spec, TIMEOUT_PYTHON_REPL). */
export const DEFAULT_PYTHON_TIMEOUT_MS = 30_000;
/** Time allowed to start Pyodide before the code's own limit begins (loading takes ~2 s). */
export const PYTHON_LOAD_TIMEOUT_MS = 60_000;
/** Heap limit of the sandbox worker, in MB. */
export const PYTHON_MAX_HEAP_MB = 512;

/** What a code run produced; `status` says whether it finished, failed, hit the limit or was cancelled. */
export interface PythonRunResult {
  status: 'ok' | 'error' | 'timeout' | 'aborted';
  stdout: string;
  stderr: string;
  /** `str()` of the last expression, when there is one. */
  result?: string;
  /** The Python error or the reason the run stopped. */
  error?: string;
  durationMs: number;
}

/** Options of {@link runPython}. */
export interface PythonRunOptions {
  /** Limit on running the code, after Pyodide has loaded. */
  timeoutMs?: number;
  /** Limit on loading Pyodide. */
  loadTimeoutMs?: number;
  signal?: AbortSignal;
}

/** A code runner with the {@link runPython} signature, so tests and the research run can pass fakes. */
export type CodeSandbox = (code: string, options?: PythonRunOptions) => Promise<PythonRunResult>;

const require = createRequire(import.meta.url);

function pyodidePaths() {
  const pyodidePath = require.resolve('pyodide');
  return { pyodidePath, indexURL: join(dirname(pyodidePath), '/') };
}

/**
 * Runs Python code with Pyodide (shipped offline in node_modules/pyodide) in a worker thread: no
 * host file system, no network, and a time limit enforced by terminating the worker. Never
 * throws; every outcome is a {@link PythonRunResult}.
 *
 * @example
 * const run = await runPython('print(sum(range(10)))', { timeoutMs: 5_000 });
 * run.stdout; // "45"
 */
export function runPython(code: string, options: PythonRunOptions = {}): Promise<PythonRunResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PYTHON_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ status: 'aborted', stdout: '', stderr: '', error: 'cancelled', durationMs: 0 });
      return;
    }
    const worker = new Worker(PYTHON_SANDBOX_WORKER_SOURCE, {
      eval: true,
      workerData: pyodidePaths(),
      resourceLimits: { maxOldGenerationSizeMb: PYTHON_MAX_HEAP_MB },
      stdout: true,
      stderr: true,
    });
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (result: Omit<PythonRunResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Resolve only once the thread is gone: a runaway loop must not outlive its limit.
      const durationMs = elapsed();
      void worker.terminate().then(
        () => resolve({ ...result, durationMs }),
        () => resolve({ ...result, durationMs }),
      );
    };
    const onAbort = () => finish({ status: 'aborted', stdout: '', stderr: '', error: 'cancelled' });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const limit = (ms: number, what: string) => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          finish({
            status: 'timeout',
            stdout: '',
            stderr: '',
            error: `${what} did not finish within ${ms} ms and was stopped.`,
          }),
        ms,
      );
    };
    limit(options.loadTimeoutMs ?? PYTHON_LOAD_TIMEOUT_MS, 'Loading Pyodide');
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') {
        limit(timeoutMs, 'The code');
        worker.postMessage({ code });
      } else if (message.type === 'result') {
        finish({
          status: 'ok',
          stdout: message.stdout,
          stderr: message.stderr,
          ...(message.result === undefined ? {} : { result: message.result }),
        });
      } else {
        finish({
          status: 'error',
          stdout: message.stdout,
          stderr: message.stderr,
          error: userTraceback(message.error),
        });
      }
    });
    worker.on('error', (error) =>
      finish({ status: 'error', stdout: '', stderr: '', error: error.message }),
    );
    worker.on('exit', (exitCode) =>
      finish({
        status: 'error',
        stdout: '',
        stderr: '',
        error: `The sandbox exited with code ${exitCode}.`,
      }),
    );
  });
}

/** Drops Pyodide's own frames from a traceback so the model sees only its code's error. */
function userTraceback(error: string): string {
  const start = error.indexOf('  File "<exec>"');
  return start < 0 ? error : `Traceback (most recent call last):\n${error.slice(start)}`;
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'result'; stdout: string; stderr: string; result?: string }
  | { type: 'error'; stdout: string; stderr: string; error: string };
