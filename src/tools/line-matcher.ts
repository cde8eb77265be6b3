import { CohortError } from '../errors/index.js';
import { nodeWorkerThreads } from '../builtins/index.js';

/**
 * How long one grep call's regular expression may run in all, in milliseconds. A pattern the
 * model writes (hostile input) can backtrack for hours on a line made for it (`(a+)+$` against
 * `aaaa…!`); JavaScript cannot interrupt a running `RegExp`, so it runs on a worker thread that is
 * terminated when this runs out, and the event loop (a whole `cohort serve`) never waits on it.
 */
export const GREP_REGEX_BUDGET_MS = 5_000;

// CommonJS, evaluated in the worker: the pattern is compiled once, then each message is one
// file's text, answered with the indexes of its matching lines (at most `limit`).
const MATCHER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.pattern, workerData.flags);
parentPort.on('message', ({ id, text, limit }) => {
  const lines = text.split(/\r?\n/);
  const hits = [];
  for (let index = 0; index < lines.length && hits.length < limit; index += 1) {
    if (regex.test(lines[index])) hits.push(index);
  }
  parentPort.postMessage({ id, hits });
});
`;

/** Matches lines against one regular expression off the main thread, within a time budget. */
export interface LineMatcher {
  /** The 0-based indexes of the first `limit` lines of `text` that match. */
  match(text: string, limit: number): Promise<number[]>;
  /** Stops the worker; calling it again does nothing. */
  close(): Promise<void>;
}

/**
 * Starts a worker thread that tests lines against `pattern` (which must compile; check it first
 * for a readable error). All `match` calls together may take `budgetMs`; past it, or when
 * `signal` aborts, the worker is terminated and the pending call fails with a `timeout` (or
 * `aborted`) {@link CohortError} that says why.
 *
 * @example
 * const matcher = startLineMatcher('export function', '');
 * try { await matcher.match(source, 200); } finally { await matcher.close(); }
 */
export function startLineMatcher(
  pattern: string,
  flags: string,
  options: { budgetMs?: number; signal?: AbortSignal } = {},
): LineMatcher {
  const budgetMs = options.budgetMs ?? GREP_REGEX_BUDGET_MS;
  const worker = new (nodeWorkerThreads().Worker)(MATCHER_SOURCE, {
    eval: true,
    // Not the parent's flags: `--input-type=module` would make the CommonJS source a module.
    execArgv: [],
    workerData: { pattern, flags },
  });
  let spentMs = 0;
  let nextId = 1;
  let closed = false;
  let pending: { reject(error: Error): void } | undefined;
  const close = async () => {
    if (closed) return;
    closed = true;
    await worker.terminate();
  };
  const fail = (error: Error) => {
    pending?.reject(error);
    pending = undefined;
    void close();
  };
  worker.on('error', (error) => fail(error));
  const onAbort = () => fail(new CohortError('aborted', 'grep was cancelled.'));
  options.signal?.addEventListener('abort', onAbort, { once: true });

  return {
    match(text, limit) {
      if (closed) return Promise.reject(new CohortError('aborted', 'grep was cancelled.'));
      const id = nextId++;
      const started = performance.now();
      return new Promise<number[]>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            fail(
              new CohortError(
                'timeout',
                `The regular expression "${pattern}" ran for more than ${budgetMs / 1000} s and was stopped: it backtracks too much on these files (nested quantifiers such as (a+)+ or (.*)*). Use a simpler pattern.`,
                { field: 'pattern' },
              ),
            ),
          Math.max(0, budgetMs - spentMs),
        );
        pending = {
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        const onMessage = (message: { id: number; hits: number[] }) => {
          if (message.id !== id) return;
          worker.off('message', onMessage);
          clearTimeout(timer);
          spentMs += performance.now() - started;
          pending = undefined;
          resolve(message.hits);
        };
        worker.on('message', onMessage);
        worker.postMessage({ id, text, limit });
      });
    },
    async close() {
      options.signal?.removeEventListener('abort', onAbort);
      await close();
    },
  };
}
