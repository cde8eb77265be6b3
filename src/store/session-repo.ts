import { MAX_HISTORY_MESSAGES, type Message } from '../schema/index.js';
import { createLogger } from '../telemetry/index.js';
import { runBatch, type Db, type Statement } from './db.js';
import { insertStatements } from './insert-rows.js';
import { OwnerRepo } from './owner-repo.js';
import { pruneInterval } from './prune-interval.js';
import { SessionCache } from './session-cache.js';
import { PRUNE_SESSIONS_EVERY, pruneSessions } from './session-retention.js';
import { storableText } from './storable-text.js';
import { MESSAGE_COLUMNS, TurnWriter } from './turn-writer.js';

/**
 * A message as {@link SessionRepo.history} returns it once stored: a NUL character or an unpaired
 * surrogate of a model's answer, which the database refuses, is U+FFFD (see `storableText`).
 */
export const storedMessage = (message: Message, timestamp: Date) => ({
  role: message.role,
  content: storableText(message.content),
  timestamp,
  ...(message.agentName ? { agentName: storableText(message.agentName) } : {}),
});

// PostgreSQL keeps timestamps from year 1 to 294276 at microsecond precision: a message outside
// the years a Date and the store agree on is read back from the store rather than cached.
const roundTrips = (message: ReturnType<typeof storedMessage>) => {
  const year = message.timestamp.getUTCFullYear();
  return year >= 1 && year <= 9999;
};

const defaultLogger = createLogger({ level: 'warn' });

// One cache and one writer per engine, so that every repo over the same engine sees the same
// writes, and they reach the engine in the order they were made.
const caches = new WeakMap<Db, { cache: SessionCache; writer: TurnWriter }>();

/**
 * The newest of `messages` (oldest first) down to the first whose newer messages' contents reach
 * `maxBytes` UTF-8 bytes, as `SessionRepo.read` chooses them in the engine.
 */
export function newestWithin(messages: Message[], maxBytes: number | undefined): Message[] {
  if (maxBytes === undefined) return messages;
  let first = messages.length;
  let newer = 0;
  while (first > 0 && newer < maxBytes) {
    first--;
    newer += Buffer.byteLength((messages[first] as Message).content);
  }
  return messages.slice(first);
}

/** Conversation history per session. */
export class SessionRepo {
  private readonly cache: SessionCache | undefined;
  private readonly writer: TurnWriter | undefined;
  private readonly keepSessions: number | undefined;
  private readonly owners: OwnerRepo;
  /** Turns saved since old sessions were last deleted. */
  private turnsSincePrune = 0;
  /** The newest message id the last deletion saw (see `pruneSessions`). */
  private prunedUpTo = 0;
  /** The deletion under way, if any. */
  private pruning: Promise<void> | undefined;

  /**
   * `exclusive`: this process is the only writer of the store's messages (an embedded store,
   * which one process holds at a time): the last messages of recent sessions are then kept in
   * memory (see `SessionCache`), so a turn reads its history without a query, and turns saved at
   * the same moment are written with one statement (see `TurnWriter`).
   *
   * `keepSessions`: keep only this many of the most recently active sessions (by their last
   * message), each with its last `KEPT_SESSION_MESSAGES` messages; older ones are deleted once
   * every {@link PRUNE_SESSIONS_EVERY} turns saved (or a tenth of the limit, if smaller), after
   * the turn that made it due, off its path. Unset keeps every session whole.
   */
  constructor(
    private readonly db: Db,
    options: { exclusive?: boolean; keepSessions?: number } = {},
  ) {
    this.keepSessions = options.keepSessions;
    this.owners = new OwnerRepo(db);
    if (options.exclusive) {
      let shared = caches.get(db);
      if (!shared) {
        shared = { cache: new SessionCache(MAX_HISTORY_MESSAGES), writer: new TurnWriter(db) };
        caches.set(db, shared);
      }
      this.cache = shared.cache;
      this.writer = shared.writer;
    }
  }

  /** Appends a message to a session. */
  async save(sessionId: string, message: Message): Promise<void> {
    await this.saveTurn(sessionId, [message]);
  }

  /**
   * Appends messages to a session together and in order: one transaction (all or none), holding
   * the session's lock, so a question and its answer are stored side by side even when other turns
   * of the same session commit at the same moment, from this process or another one.
   *
   * @example
   * await sessions.saveTurn(id, [{ role: 'user', content: q }, { role: 'assistant', content: a }]);
   */
  async saveTurn(sessionId: string, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    // Each message as a read will return it, timestamp fixed now.
    const stored = messages.map((message) =>
      storedMessage(message, message.timestamp ?? new Date()),
    );
    const rows = stored.map((message) => [
      sessionId,
      message.role,
      message.content,
      message.agentName ?? null,
      message.timestamp.toISOString(),
    ]);
    const write = this.cache?.beginWrite(sessionId);
    let committed = false;
    try {
      if (this.writer) await this.writer.append(rows);
      else {
        // PostgreSQL needs the session's lock, held until commit, to keep concurrent turns of
        // one session apart, from this process or another one; then one batch, one round trip.
        const lock: Statement = {
          sql: 'SELECT pg_advisory_xact_lock(hashtext($1))',
          params: [`session:${sessionId}`],
        };
        await runBatch(this.db, [
          ...(this.db.engine === 'postgres' ? [lock] : []),
          ...insertStatements('messages', MESSAGE_COLUMNS, rows),
        ]);
      }
      committed = true;
    } finally {
      // A message the engine may store differently from how it was given is not cached.
      if (write)
        this.cache?.endWrite(write, committed && stored.every(roundTrips) ? stored : undefined);
    }
    this.pruneIfDue();
  }

  /** Resolves once a deletion of old sessions under way has ended (the store waits before closing). */
  async settled(): Promise<void> {
    await this.pruning;
  }

  /**
   * Starts deleting the sessions beyond `keepSessions` when enough turns were saved since the last
   * time, unless a deletion is under way. A failure is logged: the turns are saved either way.
   */
  private pruneIfDue(): void {
    const keep = this.keepSessions;
    if (keep === undefined) return;
    this.turnsSincePrune++;
    if (this.pruning || this.turnsSincePrune < pruneInterval(keep, PRUNE_SESSIONS_EVERY)) return;
    this.turnsSincePrune = 0;
    const cache = this.cache;
    this.pruning = pruneSessions(this.db, keep, this.prunedUpTo, (sessionIds) => {
      // The cache forgets the sessions deleted whole, as it does for any other delete.
      const writes = cache ? sessionIds.map((id) => cache.beginWrite(id)) : [];
      return () => {
        for (const write of writes) cache?.endWrite(write, undefined);
      };
    })
      .then(({ last }) => {
        this.prunedUpTo = last;
      })
      .catch((cause: unknown) => {
        defaultLogger.warn('sessions_not_pruned', {
          cause: cause instanceof Error ? cause.message : String(cause),
        });
      })
      .finally(() => {
        this.pruning = undefined;
      });
  }

  /**
   * The last `limit` messages of a session, oldest first. With `maxBytes`, only those whose newer
   * messages' contents add up to less than that many UTF-8 bytes (so the newest always, and at
   * most one message past the budget), chosen by the engine before any text is read: a model's
   * answers may each be up to a million characters, and 1,000 of them in one page were a string
   * past what V8 can hold (500) and gigabytes of the server's memory.
   */
  async history(sessionId: string, limit: number, maxBytes?: number): Promise<Message[]> {
    const cache = this.cache;
    if (!cache || limit > cache.depth) return this.read(sessionId, limit, maxBytes);
    const known = cache.get(sessionId, limit);
    if (known) return newestWithin(known, maxBytes);
    const read = cache.beginRead(sessionId);
    let messages: Message[] | undefined;
    try {
      messages = await this.read(sessionId, cache.depth);
    } finally {
      cache.endRead(read, messages);
    }
    return newestWithin(messages.slice(Math.max(0, messages.length - limit)), maxBytes);
  }

  private async read(sessionId: string, limit: number, maxBytes?: number): Promise<Message[]> {
    // octet_length reads a stored text's size without decompressing it.
    const { rows } = await this.db.query<{
      role: 'user' | 'assistant';
      content: string;
      agent_name: string | null;
      created_at: string | Date;
    }>(
      `SELECT role, content, agent_name, created_at FROM (
         SELECT id, role, content, agent_name, created_at,
           SUM(octet_length(content)) OVER (ORDER BY id DESC) - octet_length(content) AS newer_bytes
         FROM messages WHERE session_id = $1 ORDER BY id DESC LIMIT $2
       ) recent WHERE $3::bigint IS NULL OR newer_bytes < $3::bigint ORDER BY id ASC`,
      [sessionId, limit, maxBytes ?? null],
    );
    return rows.map((row) => ({
      role: row.role,
      content: row.content,
      timestamp: new Date(row.created_at),
      ...(row.agent_name ? { agentName: row.agent_name } : {}),
    }));
  }

  /**
   * Ids of sessions that have messages, at most `limit` of them, in no particular order.
   *
   * @example
   * const some = await sessions.ids(1001); // more than 1,000: too many to list
   */
  async ids(limit: number): Promise<string[]> {
    const { rows } = await this.db.query<{ session_id: string }>(
      'SELECT DISTINCT session_id FROM messages LIMIT $1',
      [limit],
    );
    return rows.map((row) => row.session_id);
  }

  /** Deletes a session's messages (and who owned it); returns how many messages were removed. */
  async delete(sessionId: string): Promise<number> {
    const write = this.cache?.beginWrite(sessionId);
    try {
      return await this.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          'DELETE FROM messages WHERE session_id = $1 RETURNING id',
          [sessionId],
        );
        await tx.query("DELETE FROM owners WHERE kind = 'session' AND id = $1", [sessionId]);
        return rows.length;
      });
    } finally {
      if (write) this.cache?.endWrite(write, undefined);
    }
  }

  /**
   * Records `owner` as the owner of `sessionId` unless it has one, and returns the owner it has
   * now (the store's owner record, see `OwnerRepo`).
   */
  claim(sessionId: string, owner: string): Promise<string> {
    return this.owners.claim('session', sessionId, owner);
  }

  /** The owner of a session, if one was recorded. */
  ownerOf(sessionId: string): Promise<string | undefined> {
    return this.owners.ownerOf('session', sessionId);
  }
}
