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

/**
 * {@link singleFlight} per key: a call for a key whose run is in flight shares that run's result
 * (its own `run` is not called); nothing is kept once it settles.
 *
 * `POST /v1/chat/completions` seeds a new session with the history a client sends through it, so
 * that requests arriving together for one new session seed it once, not once each.
 *
 * @example
 * const seed = keyedSingleFlight<void>();
 * await Promise.all([seed('s1', () => save()), seed('s1', () => save())]); // one save
 */
export function keyedSingleFlight<T>(): (key: string, run: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, run) => {
    let flight = running.get(key);
    if (!flight) {
      flight = run().finally(() => running.delete(key));
      running.set(key, flight);
    }
    return flight;
  };
}
