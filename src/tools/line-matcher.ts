import { CohortError } from '../errors/index.js';
import { nodeWorkerThreads } from '../builtins/index.js';

/**
 * How long one grep call's regular expression may run in all, in milliseconds. A pattern the
 * model writes (hostile input) can backtrack for hours on a line made for it (`(a+)+$` against
 * `aaaa…!`); JavaScript cannot interrupt a running `RegExp`, so it runs on a worker thread that is
 * terminated when this runs out, and the event loop (a whole `cohort serve`) never waits on it.
 * What counts is the time the worker spends matching, as it measures it: the round trip of each
 * file's text to the worker and back counted too once, so a grep of a plain word over a workspace
 * of 100,000 files failed after 5 s of messages, saying the pattern backtracked.
 */
export const GREP_REGEX_BUDGET_MS = 5_000;

/** Wall time a call may take beyond what is left of the budget: its message's round trip. */
const ROUND_TRIP_GRACE_MS = 1_000;

// CommonJS, evaluated in the worker: the pattern is compiled once, then each message is one
// file's text, answered with the indexes of its matching lines (at most `limit`).
const MATCHER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.pattern, workerData.flags);
parentPort.on('message', ({ id, text, limit }) => {
  const started = performance.now();
  const lines = text.split(/\r?\n/);
  const hits = [];
  for (let index = 0; index < lines.length && hits.length < limit; index += 1) {
    if (regex.test(lines[index])) hits.push(index);
  }
  parentPort.postMessage({ id, hits, spentMs: performance.now() - started });
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
 * for a readable error). All `match` calls together may match for `budgetMs` (the worker's time
 * matching, not the messages' round trips; a call the worker does not answer within what is left
 * is stopped all the same); past it, or when
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
  // Settles once the worker runs (or failed first): its start is no time spent matching.
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  worker.once('online', () => markStarted());
  const close = async () => {
    if (closed) return;
    closed = true;
    markStarted();
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
    async match(text, limit) {
      await started;
      if (closed) throw new CohortError('aborted', 'grep was cancelled.');
      const id = nextId++;
      return new Promise<number[]>((resolve, reject) => {
        // The backstop for a call the worker does not answer (a pattern backtracking): what is
        // left of the budget, and the message's round trip on a loaded machine.
        const timer = setTimeout(
          () =>
            fail(
              new CohortError(
                'timeout',
                `The regular expression "${pattern}" ran for more than ${budgetMs / 1000} s and was stopped: it backtracks too much on these files (nested quantifiers such as (a+)+ or (.*)*). Use a simpler pattern.`,
                { field: 'pattern' },
              ),
            ),
          Math.max(0, budgetMs - spentMs) + ROUND_TRIP_GRACE_MS,
        );
        pending = {
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        const onMessage = (message: { id: number; hits: number[]; spentMs: number }) => {
          if (message.id !== id) return;
          worker.off('message', onMessage);
          clearTimeout(timer);
          spentMs += message.spentMs;
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
