import { runBatch, type Db, type Statement } from './db.js';
import { insertStatements } from './insert-rows.js';

/** The columns of a stored message, in the order {@link TurnWriter.append} takes its rows. */
export const MESSAGE_COLUMNS = ['session_id', 'role', 'content', 'agent_name', 'created_at'];

interface Waiting {
  rows: readonly (readonly unknown[])[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Appends turns (rows of `messages`) for a store that this process alone writes, coalescing the
 * turns that arrive while a write is under way into the next write: one multi-row INSERT, one
 * round trip and one commit for all of them, in the order they were given, instead of one
 * statement each (on the embedded engine the statement, not the row, is what costs). Each turn
 * still stays all or none and is acknowledged only once committed: when a coalesced write fails,
 * its turns are written again one by one, so only a bad turn fails.
 *
 * @example
 * await new TurnWriter(db).append([[id, 'user', 'q', null, now], [id, 'assistant', 'a', 'book', now]]);
 */
export class TurnWriter {
  private queue: Waiting[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  /** Inserts `rows` (see {@link MESSAGE_COLUMNS}) together; resolves once they are committed. */
  append(rows: readonly (readonly unknown[])[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0);
        try {
          await runBatch(this.db, statementsOf(group.flatMap((turn) => turn.rows)));
          for (const turn of group) turn.resolve();
        } catch (error) {
          if (group.length === 1) {
            group[0]?.reject(error);
            continue;
          }
          // One turn spoilt the group (a value the engine refuses): each is written alone, in
          // order, so that every other turn commits.
          for (const turn of group) {
            try {
              await runBatch(this.db, statementsOf(turn.rows));
              turn.resolve();
            } catch (own) {
              turn.reject(own);
            }
          }
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

const statementsOf = (rows: readonly (readonly unknown[])[]): Statement[] =>
  insertStatements('messages', MESSAGE_COLUMNS, rows);
