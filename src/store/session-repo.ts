import type { Message } from '../schema/index.js';
import type { Db } from './db.js';

/** Conversation history per session. */
export class SessionRepo {
  constructor(private readonly db: Db) {}

  /** Appends a message to a session. */
  async save(sessionId: string, message: Message): Promise<void> {
    await this.db.query(
      'INSERT INTO messages (session_id, role, content, agent_name, created_at) VALUES ($1, $2, $3, $4, $5)',
      [
        sessionId,
        message.role,
        message.content,
        message.agentName ?? null,
        (message.timestamp ?? new Date()).toISOString(),
      ],
    );
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

  /** Deletes a session's messages; returns how many were removed. */
  async delete(sessionId: string): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>(
      'DELETE FROM messages WHERE session_id = $1 RETURNING id',
      [sessionId],
    );
    return rows.length;
  }
}
