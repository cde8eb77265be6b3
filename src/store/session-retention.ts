import type { Db } from './db.js';

/**
 * Messages each session keeps in a store that bounds its sessions (`keepSessions`): its last 100
 * (50 turns). The model reads only the last `MAX_HISTORY_MESSAGES`, `GET
 * /sessions/:id/messages` all that are kept. Never below MAX_HISTORY_MESSAGES: the session cache
 * holds that many of a session's last messages, and trimming must not reach them.
 */
export const KEPT_SESSION_MESSAGES = 100;
/** At most this many turns are saved between two deletions of old sessions and messages. */
export const PRUNE_SESSIONS_EVERY = 100;

/** The sessions beyond the `$1` most recently active (by their last message), with that message's id. */
const OLD_SESSIONS = `SELECT session_id, max(id) AS last FROM messages
  GROUP BY session_id ORDER BY max(id) DESC OFFSET $1`;

/**
 * The messages of the sessions `$1` up to id `$2`: a turn saved to one of them since it was picked
 * is newer and stays.
 */
const DELETE_SESSIONS = `DELETE FROM messages WHERE session_id = ANY($1::text[]) AND id <= $2`;

/**
 * Who owned the sessions `$1` that kept no message (a turn saved since they were picked keeps its
 * session, and its owner): otherwise the owners table grows with every session a bounded store
 * ever had.
 */
const DELETE_SESSION_OWNERS = `DELETE FROM owners WHERE kind = 'session' AND id = ANY($1::text[])
  AND NOT EXISTS (SELECT 1 FROM messages WHERE messages.session_id = owners.id)`;

/**
 * Each session's messages beyond its newest `$1`, looking only at sessions written after id `$2`
 * (the others were trimmed before and have not grown since).
 */
const TRIM_SESSIONS = `DELETE FROM messages WHERE id IN (
  SELECT id FROM (
    SELECT id, row_number() OVER (PARTITION BY session_id ORDER BY id DESC) AS n FROM messages
    WHERE session_id IN (SELECT DISTINCT session_id FROM messages WHERE id > $2)
  ) ranked WHERE n > $1)`;

/** What one pruning did: the sessions it removed whole, and the newest message id it saw. */
export interface SessionPrune {
  removed: string[];
  last: number;
}

/**
 * Keeps the `keep` most recently active sessions (by their last message) and, of each, its last
 * {@link KEPT_SESSION_MESSAGES} messages; everything else goes. `since` is the `last` of the
 * previous pruning (0 the first time): only sessions written after it can have grown past the cap.
 * `beforeDelete` is told the sessions about to be removed whole (the session cache forgets them).
 * The embedded engine has no autovacuum, so the freed rows are vacuumed there for new ones to reuse.
 *
 * @example
 * const { last } = await pruneSessions(db, 1000, 0);
 */
export async function pruneSessions(
  db: Db,
  keep: number,
  since: number,
  beforeDelete: (sessionIds: readonly string[]) => () => void = () => () => undefined,
): Promise<SessionPrune> {
  const { rows: newest } = await db.query<{ last: number | string | null }>(
    'SELECT max(id) AS last FROM messages',
  );
  const last = Number(newest[0]?.last ?? 0);
  const { rows: old } = await db.query<{ session_id: string; last: number | string }>(
    OLD_SESSIONS,
    [keep],
  );
  const removed = old.map((row) => row.session_id);
  if (removed.length > 0) {
    const upTo = old.reduce((max, row) => Math.max(max, Number(row.last)), 0);
    const done = beforeDelete(removed);
    try {
      await db.query(DELETE_SESSIONS, [removed, upTo]);
      await db.query(DELETE_SESSION_OWNERS, [removed]);
    } finally {
      done();
    }
  }
  await db.query(TRIM_SESSIONS, [KEPT_SESSION_MESSAGES, since]);
  if (db.engine === 'pglite')
    await db.exec(removed.length > 0 ? 'VACUUM messages, owners' : 'VACUUM messages');
  return { removed, last };
}
