import { randomUUID } from 'node:crypto';

/**
 * The line under a `cohort ask` answer that says how to ask a follow-up. Asked in a session, it
 * names the session to ask in again. Asked without one, nothing was kept (an ask without
 * `--session` stays stateless, so it starts without opening the store's engine), so it offers a
 * new session ID to start one with, or `cohort chat`. The plain text used to show no session at
 * all: a user who had not made up a UUID up front could not continue without `--json`.
 *
 * @example
 * describeSession('6f1c1e9e-5b9a-4b0e-9a53-2f8d1c3b7a10');
 * // 'Session 6f1c1e9e-… · ask a follow-up with: cohort ask --session 6f1c1e9e-… "<question>"'
 */
export function describeSession(
  sessionId: string | undefined,
  newSessionId: () => string = randomUUID,
): string {
  // "anonymous" is the wire's name for no session: nothing is kept under it either.
  if (sessionId && sessionId !== 'anonymous')
    return `Session ${sessionId} · ask a follow-up with: cohort ask --session ${sessionId} "<question>"`;
  return `Not kept in a session · to ask follow-ups, ask in one: cohort ask --session ${newSessionId()} "<question>" (or use cohort chat)`;
}
