/**
 * Wraps an async check so that calls made while one is running share its result instead of
 * starting another. Nothing is kept once it settles: the next call after that runs it afresh, so
 * the answer is never older than the call that is still in flight.
 *
 * `GET /healthz` uses it for the store ping: under load, fifty waiting probes cost one query
 * instead of fifty queued behind each other on the embedded engine's single connection.
 *
 * @example
 * const ping = singleFlight(() => store.ping());
 * await Promise.all([ping(), ping()]); // one query
 */
export function singleFlight<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };
}
