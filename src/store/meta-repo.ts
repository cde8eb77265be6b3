import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';

/** Small named values the store keeps for the application (the `meta` table). */
export class MetaRepo {
  readonly #secrets = new Map<string, Promise<string>>();

  constructor(private readonly db: Db) {}

  /**
   * A random secret kept under `name`, made on first use and the same ever after, for every
   * process sharing the store (the first writer wins a race). Used to key derived identifiers so
   * that nobody without the store can compute them.
   *
   * @example
   * const key = await store.meta.secret('session_ids'); // 64 hex characters
   */
  secret(name: string): Promise<string> {
    let secret = this.#secrets.get(name);
    if (!secret) {
      secret = this.#loadSecret(name);
      this.#secrets.set(name, secret);
      // A failure (store down) is not cached: the next call tries again.
      secret.catch(() => this.#secrets.delete(name));
    }
    return secret;
  }

  async #loadSecret(name: string): Promise<string> {
    const key = `secret:${name}`;
    await this.db.query(
      'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
      [key, JSON.stringify(randomBytes(32).toString('hex'))],
    );
    const { rows } = await this.db.query<{ value: unknown }>(
      'SELECT value FROM meta WHERE key = $1',
      [key],
    );
    const value = rows[0]?.value;
    return typeof value === 'string' && value.startsWith('"')
      ? (JSON.parse(value) as string)
      : String(value);
  }

  /**
   * The JSON value kept under `key`, or undefined when there is none.
   *
   * @example
   * const roots = await store.meta.get('ingest_roots');
   */
  async get(key: string): Promise<unknown> {
    const { rows } = await this.db.query<{ value: unknown }>(
      'SELECT value FROM meta WHERE key = $1',
      [key],
    );
    return rows[0]?.value;
  }

  /**
   * Keeps `value` (any JSON) under `key`, replacing what was there.
   *
   * @example
   * await store.meta.set('ingest_roots', { '/books/a': ['intro.md'] });
   */
  async set(key: string, value: unknown): Promise<void> {
    await setMetaValue(this.db, key, value);
  }
}

/**
 * Keeps `value` (any JSON) under `key` of the `meta` table through `db`, which may be a
 * transaction, so a value can commit with the rows it describes.
 *
 * @example
 * await db.transaction((tx) => setMetaValue(tx, 'ingest_roots', roots));
 */
export async function setMetaValue(db: Db, key: string, value: unknown): Promise<void> {
  await db.query(
    'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, JSON.stringify(value)],
  );
}
