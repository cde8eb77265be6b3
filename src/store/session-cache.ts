import type { Message } from '../schema/index.js';

/** Sessions whose last messages are kept (least recently used forgotten first). */
export const CACHED_SESSIONS = 1000;

/** What one session's cache knows and what is being written to it. */
interface SessionState {
  /** The session's last messages as the store has them now (at most `depth`), when known. */
  messages?: Message[];
  /** The write whose result `messages` includes last (0: none since the cache knew them). */
  applied: number;
  /** The last write to the session that started (a global sequence number; 0: none). */
  lastStarted: number;
  /** Writes started and not yet finished. */
  inFlight: number;
  /** Reads of the store started and not yet finished. */
  reading: number;
}

/** A read of the store that may fill the cache (see {@link SessionCache.beginRead}). */
export interface CacheRead {
  readonly sessionId: string;
  readonly fillable: boolean;
  readonly lastStarted: number;
}

/** A write to the store that the cache follows (see {@link SessionCache.beginWrite}). */
export interface CacheWrite {
  readonly sessionId: string;
  readonly seq: number;
  readonly previous: number;
}

const copy = (message: Message): Message => ({
  ...message,
  ...(message.timestamp ? { timestamp: new Date(message.timestamp.getTime()) } : {}),
});

/**
 * The last `depth` messages of recently used sessions, kept in memory so that a turn does not read
 * its session's history from the store again. Correct only when every write to the messages goes
 * through this process's cache: an embedded store, which one process holds at a time.
 *
 * What it answers is always what the store holds: it is filled only by a read during which no
 * write to that session was under way (so the read saw every acknowledged write and nothing
 * half-done), and a finished write is appended only when the write before it on that session is
 * the last one the cache applied; anything else (a failed write, writes finishing out of order, a
 * delete) forgets the session, and the next read asks the store again.
 *
 * @example
 * const cache = new SessionCache(10);
 * const hit = cache.get(id, 10) ?? (await readAndFill(cache, id));
 */
export class SessionCache {
  private readonly sessions = new Map<string, SessionState>();
  private sequence = 0;

  constructor(
    /** Messages kept per session; reads of more than this go to the store. */
    readonly depth: number,
    private readonly maxSessions = CACHED_SESSIONS,
  ) {}

  /** The last `limit` messages of a session (oldest first) when known, else undefined. */
  get(sessionId: string, limit: number): Message[] | undefined {
    if (limit > this.depth) return undefined;
    const state = this.sessions.get(sessionId);
    if (!state?.messages) return undefined;
    // Most recently used last, so eviction takes the first entries.
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, state);
    return state.messages.slice(Math.max(0, state.messages.length - limit)).map(copy);
  }

  /** Call before reading a session's last `depth` messages from the store; then {@link endRead}. */
  beginRead(sessionId: string): CacheRead {
    const state = this.state(sessionId);
    state.reading++;
    return { sessionId, fillable: state.inFlight === 0, lastStarted: state.lastStarted };
  }

  /**
   * Call when a read begun with {@link beginRead} has finished: `messages` is what it returned
   * (undefined when it failed). They are kept if no write to the session overlapped the read.
   */
  endRead(read: CacheRead, messages: readonly Message[] | undefined): void {
    const state = this.sessions.get(read.sessionId);
    if (!state) return;
    state.reading--;
    if (
      messages &&
      read.fillable &&
      state.inFlight === 0 &&
      state.lastStarted === read.lastStarted
    ) {
      state.messages = messages.slice(Math.max(0, messages.length - this.depth)).map(copy);
      state.applied = read.lastStarted;
      // Most recently used last, so eviction takes the first entries.
      this.sessions.delete(read.sessionId);
      this.sessions.set(read.sessionId, state);
      this.evict();
    }
    this.release(read.sessionId, state);
  }

  /** Call before writing to a session (an append or a delete); then {@link endWrite}. */
  beginWrite(sessionId: string): CacheWrite {
    const state = this.state(sessionId);
    const write = { sessionId, seq: ++this.sequence, previous: state.lastStarted };
    state.lastStarted = write.seq;
    state.inFlight++;
    return write;
  }

  /**
   * Call when a write has finished: `appended` are the messages it added (committed), or
   * undefined when it failed or removed messages, which makes the cache forget the session.
   */
  endWrite(write: CacheWrite, appended: readonly Message[] | undefined): void {
    const state = this.sessions.get(write.sessionId);
    if (!state) return;
    state.inFlight--;
    if (appended && state.messages && state.applied === write.previous) {
      const messages = [...state.messages, ...appended.map(copy)];
      state.messages = messages.slice(Math.max(0, messages.length - this.depth));
      state.applied = write.seq;
    } else {
      delete state.messages;
    }
    this.release(write.sessionId, state);
  }

  /** How many sessions the cache holds messages for (for tests). */
  get size(): number {
    let known = 0;
    for (const state of this.sessions.values()) if (state.messages) known++;
    return known;
  }

  private state(sessionId: string): SessionState {
    let state = this.sessions.get(sessionId);
    if (!state) {
      state = { applied: 0, lastStarted: 0, inFlight: 0, reading: 0 };
      this.sessions.set(sessionId, state);
    }
    return state;
  }

  /** Forgets a session nothing is known about and nothing is reading or writing. */
  private release(sessionId: string, state: SessionState): void {
    if (!state.messages && state.inFlight === 0 && state.reading === 0)
      this.sessions.delete(sessionId);
  }

  private evict(): void {
    if (this.sessions.size <= this.maxSessions) return;
    for (const [id, state] of this.sessions) {
      if (this.sessions.size <= this.maxSessions) return;
      // A session being read or written keeps its bookkeeping until that ends.
      if (state.inFlight === 0 && state.reading === 0) this.sessions.delete(id);
    }
  }
}
