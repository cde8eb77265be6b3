import { Hono, type Context } from 'hono';
import { SessionId, toWire } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import { apiError, HttpError } from '../api-error.js';
import {
  MAX_SESSION_PAGE_BYTES,
  SessionMessagesQuery,
  type SessionDeletedResponse,
  type SessionMessagesResponse,
} from '../api-schemas.js';
import type { ServerEnv } from '../server-env.js';
import { noSession, requireSessionAccess } from '../session-access.js';

/** The session id of the path, or a 400 naming it: a malformed URL, not a bad body. */
function sessionIdOf(c: Context<ServerEnv>): string {
  const id = c.req.param('id') ?? '';
  const parsed = SessionId.safeParse(id);
  if (!parsed.success) {
    throw new HttpError(
      apiError('bad_request', 'The session id in the path must be a UUID.', 'session_id'),
    );
  }
  return parsed.data;
}

/**
 * `GET /sessions/:id/messages?limit=100` (the latest messages, oldest first) and
 * `DELETE /sessions/:id`. A session that has no messages, or that another API key owns, is 404.
 *
 * @example
 * app.route('/', sessionRoutes({ store }));
 */
export function sessionRoutes(parts: { store: Pick<Store, 'sessions'> }) {
  const { store } = parts;
  const app = new Hono<ServerEnv>();

  app.get('/sessions/:id/messages', async (c) => {
    const sessionId = sessionIdOf(c);
    // `?limit=5&limit=6` would read the first and drop the second without a word.
    const limits = c.req.queries('limit') ?? [];
    if (limits.length > 1)
      throw new HttpError(
        apiError('bad_request', 'limit is given more than once: give it once.', 'limit'),
      );
    const query = SessionMessagesQuery.safeParse({ limit: limits[0] });
    if (!query.success) {
      const message = query.error.issues[0]?.message ?? 'limit is not valid';
      throw new HttpError(apiError('bad_request', message, 'limit'));
    }
    await requireSessionAccess(c, store, sessionId, { claim: false });
    const messages = await store.sessions.history(
      sessionId,
      query.data.limit,
      MAX_SESSION_PAGE_BYTES,
    );
    if (messages.length === 0) throw noSession(sessionId);
    const body: SessionMessagesResponse = { sessionId, messages, total: messages.length };
    return c.json(toWire(body));
  });

  app.delete('/sessions/:id', async (c) => {
    const sessionId = sessionIdOf(c);
    await requireSessionAccess(c, store, sessionId, { claim: false });
    const deleted = await store.sessions.delete(sessionId);
    if (deleted === 0) throw noSession(sessionId);
    const body: SessionDeletedResponse = { sessionId, deleted };
    return c.json(toWire(body));
  });

  return app;
}
