import type { Db } from './db.js';

/**
 * What an owner is recorded for: a chat `session` (its session id), a stored `run` (its run id:
 * a research or coding run, also a coding conversation's `code-session:<name>` run).
 */
export type OwnedKind = 'session' | 'run';

/**
 * Who owns what, when API keys are in use: the one record of ownership for sessions and runs
 * (the `owners` table). The first caller to claim an id owns it; the HTTP server answers any other
 * caller as if the id did not exist.
 *
 * @example
 * await owners.claim('run', runId, principal); // principal, or the owner it already had
 */
export class OwnerRepo {
  constructor(private readonly db: Db) {}

  /**
   * Records `owner` as the owner of `id` unless it has one, and returns the owner it has now:
   * `owner` when the claim succeeded or was made before, someone else's otherwise.
   */
  async claim(kind: OwnedKind, id: string, owner: string): Promise<string> {
    const { rows } = await this.db.query<{ owner: string }>(
      `INSERT INTO owners (kind, id, owner) VALUES ($1, $2, $3)
       ON CONFLICT (kind, id) DO UPDATE SET id = EXCLUDED.id
       RETURNING owner`,
      [kind, id, owner],
    );
    return rows[0]?.owner ?? owner;
  }

  /** The owner of `id`, if one was recorded. */
  async ownerOf(kind: OwnedKind, id: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ owner: string }>(
      'SELECT owner FROM owners WHERE kind = $1 AND id = $2',
      [kind, id],
    );
    return rows[0]?.owner;
  }
}
