import { createHmac } from 'node:crypto';
import type { Context } from 'hono';
import type { Store } from '../store/index.js';
import { CohortError } from '../errors/index.js';
import type { ServerEnv } from './server-env.js';

/** The store secret that keys session ids derived from a name (`/v1` `user`, a conversation). */
const SESSION_ID_SECRET = 'session_ids';

/**
 * The 404 for a session the caller cannot see: unknown, deleted, or another key's. A CohortError,
 * so the MCP tools report its message as the HTTP routes do.
 */
export function noSession(id: string): CohortError {
  return new CohortError(
    'not_found',
    `Session "${id}" has no messages: it never existed, was deleted, or is the anonymous session (which keeps no history).`,
    { field: 'session_id' },
  );
}

/**
 * Makes sure the caller may use `sessionId`. When API keys are in use, the first key to use a
 * session owns it, and any other key is answered as if the session did not exist (404): a session
 * id is not a password. Without keys every caller is the same and nothing is checked.
 *
 * @example
 * await requireSessionAccess(c, store, request.sessionId, { claim: true });
 */
export async function requireSessionAccess(
  c: Context<ServerEnv>,
  store: Pick<Store, 'sessions'>,
  sessionId: string | undefined,
  options: { claim: boolean },
): Promise<void> {
  const principal = c.get('principal');
  if (!principal || !sessionId || sessionId === 'anonymous') return;
  const owner = options.claim
    ? await store.sessions.claim(sessionId, principal)
    : await store.sessions.ownerOf(sessionId);
  if (isAnotherKeys(c, owner)) throw noSession(sessionId);
}

/**
 * The `owner` of an answer's `AskOptions`: the caller's principal when API keys are in use, so
 * the trace of an answer without a session is that key's alone; nothing without keys.
 *
 * @example
 * await assistant.ask(request, { signal, ...askedBy(c) });
 */
export function askedBy(c: Context<ServerEnv>): { owner?: string } {
  const principal = c.get('principal');
  return principal ? { owner: principal } : {};
}

/**
 * True when `owner` (a session's or a run's, from the store's `owners`) is an API key other than
 * the caller's. Nothing recorded, or no keys in use, is nobody else's.
 */
export function isAnotherKeys(c: Context<ServerEnv>, owner: string | undefined): boolean {
  const principal = c.get('principal');
  return principal !== undefined && owner !== undefined && owner !== principal;
}

/**
 * Sessions' rule for a run (a research or coding run, a coding conversation's run): the API key
 * that started it owns it, and any other key is answered with `refusal`, the error of an unknown
 * id (a run id is not a password either). `claim` records the caller as the owner of a run that
 * has none (a new run, before it starts, or one started without keys); without keys nothing is
 * checked.
 *
 * @example
 * await requireRunAccess(c, store, runId, { claim: false }, () => noCodingRun(runId));
 */
export async function requireRunAccess(
  c: Context<ServerEnv>,
  store: Pick<Store, 'owners'>,
  runId: string,
  options: { claim: boolean },
  refusal: () => Error,
): Promise<void> {
  const principal = c.get('principal');
  if (!principal) return;
  const owner = options.claim
    ? await store.owners.claim('run', runId, principal)
    : await store.owners.ownerOf('run', runId);
  if (isAnotherKeys(c, owner)) throw refusal();
}

/**
 * A session id derived from a name (the `/v1` `user` field, or a conversation's first messages):
 * the same name maps to the same session, but only through an HMAC keyed with the store's secret
 * and scoped to the caller's API key, so knowing a user's e-mail address does not give anyone
 * their session id.
 *
 * @example
 * const id = await derivedSessionId(c, store, 'user:alice@example.com');
 */
export async function derivedSessionId(
  c: Context<ServerEnv>,
  store: Pick<Store, 'meta'>,
  name: string,
): Promise<string> {
  const secret = await store.meta.secret(SESSION_ID_SECRET);
  const hex = createHmac('sha256', secret)
    .update(`${c.get('principal') ?? ''}\u0000${name}`)
    .digest('hex');
  // Version 8 (custom) and the RFC variant bits, so it is a well-formed UUID.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
