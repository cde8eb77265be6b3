import type { Message } from '../schema/index.js';
import { runBatch, type Db, type Statement } from './db.js';
import { insertStatements } from './insert-rows.js';

/** Conversation history per session. */
export class SessionRepo {
  constructor(private readonly db: Db) {}

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
    const statements: Statement[] = [];
    // PGlite has one connection, so its transactions already run one at a time; PostgreSQL
    // needs the lock, held until commit, to keep concurrent turns of one session apart.
    if (this.db.engine === 'postgres') {
      statements.push({
        sql: 'SELECT pg_advisory_xact_lock(hashtext($1))',
        params: [`session:${sessionId}`],
      });
    }
    statements.push(
      ...insertStatements(
        'messages',
        ['session_id', 'role', 'content', 'agent_name', 'created_at'],
        messages.map((message) => [
          sessionId,
          message.role,
          message.content,
          message.agentName ?? null,
          (message.timestamp ?? new Date()).toISOString(),
        ]),
      ),
    );
    // One batch: one round trip to the engine, committed with the turns that arrive with it.
    await runBatch(this.db, statements);
  }

  /** The last `limit` messages of a session, oldest first. */
  async history(sessionId: string, limit: number): Promise<Message[]> {
    const { rows } = await this.db.query<{
      role: 'user' | 'assistant';
      content: string;
      agent_name: string | null;
      created_at: string | Date;
    }>(
      `SELECT role, content, agent_name, created_at FROM (
         SELECT id, role, content, agent_name, created_at FROM messages
         WHERE session_id = $1 ORDER BY id DESC LIMIT $2
       ) recent ORDER BY id ASC`,
      [sessionId, limit],
    );
    return rows.map((row) => ({
      role: row.role,
      content: row.content,
      timestamp: new Date(row.created_at),
      ...(row.agent_name ? { agentName: row.agent_name } : {}),
    }));
  }

  /** Deletes a session's messages (and who owned it); returns how many messages were removed. */
  async delete(sessionId: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>(
        'DELETE FROM messages WHERE session_id = $1 RETURNING id',
        [sessionId],
      );
      await tx.query('DELETE FROM session_owners WHERE session_id = $1', [sessionId]);
      return rows.length;
    });
  }

  /**
   * Records `owner` as the owner of `sessionId` unless it has one, and returns the owner it has
   * now: `owner` when the claim succeeded or was made before, someone else's otherwise.
   */
  async claim(sessionId: string, owner: string): Promise<string> {
    const { rows } = await this.db.query<{ owner: string }>(
      `INSERT INTO session_owners (session_id, owner) VALUES ($1, $2)
       ON CONFLICT (session_id) DO UPDATE SET session_id = EXCLUDED.session_id
       RETURNING owner`,
      [sessionId, owner],
    );
    return rows[0]?.owner ?? owner;
  }

  /** The owner of a session, if one was recorded. */
  async ownerOf(sessionId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ owner: string }>(
      'SELECT owner FROM session_owners WHERE session_id = $1',
      [sessionId],
    );
    return rows[0]?.owner;
  }
}
