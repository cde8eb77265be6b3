/** A stream whose first item has already arrived. */
export interface StartedEvents<T> {
  first: IteratorResult<T>;
  rest: AsyncIterator<T>;
}

/**
 * Waits for the first item of `events` before a response is committed, so a failure that happens
 * up front (bad input, unknown agent, store down) is still answered with a proper status code
 * instead of an event inside a 200 stream.
 *
 * @example
 * const { first, rest } = await startEvents(assistant.askStream(input));
 */
export async function startEvents<T>(events: AsyncIterable<T>): Promise<StartedEvents<T>> {
  const rest = events[Symbol.asyncIterator]();
  const first = await rest.next();
  return { first, rest };
}

/**
 * Every item of a started stream, the first one included. A consumer that stops early (a client
 * gone from an SSE stream) closes the started stream too, so its `finally` runs: the run ends
 * and its trace is recorded instead of waiting forever at a `yield`.
 */
export async function* resumeEvents<T>(started: StartedEvents<T>): AsyncIterable<T> {
  if (started.first.done) return;
  let finished = false;
  try {
    yield started.first.value;
    for (let next = await started.rest.next(); !next.done; next = await started.rest.next()) {
      yield next.value;
    }
    finished = true;
  } finally {
    if (!finished) await started.rest.return?.();
  }
}
