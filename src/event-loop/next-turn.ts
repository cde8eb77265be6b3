/**
 * Resolves once the event loop has run a turn: the I/O callbacks waiting meanwhile (a worker
 * thread's answers, a server's requests) run before the caller goes on. Long builds on the main
 * thread await it between their parts, so that what waits on the loop is not held for the whole
 * build (an ingestion's transaction commits while the router trains). `setImmediate`, not a
 * resolved promise or `process.nextTick`: those run before any I/O callback, so nothing waiting
 * would be heard.
 *
 * @example
 * learnTheBook();
 * await nextTurn(); // the engine's answers that came meanwhile are handled here
 * trainTheRouter();
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
