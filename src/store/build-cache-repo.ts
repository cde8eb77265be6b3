import type { Db } from './db.js';

/**
 * Values built from the store's chunks that take long to build (the lexical index, what the router
 * learnt from the book): saved so that a new process loads them instead of building them again.
 * One row per name; its `key` says what it was built from (a hash of the chunks' content and of the
 * builder), so a value is only ever read back for the content it was built from. An ingestion that
 * changes any chunk empties the cache (see `ChunkRepo.applyIngestion`).
 */
export class BuildCacheRepo {
  /**
   * `discard`: keep nothing (every `get` is a miss), for a store no later process can open
   * (`memory://`): what it saved could only be read back by the process that built it, which
   * holds it already, and saving it copied the encoded value into the in-memory database's files
   * (on the sample book, the trained router and the lexical index: ~14 MB of the process's peak).
   */
  constructor(
    private readonly db: Db,
    private readonly options: { discard?: boolean } = {},
  ) {}

  /** False when it keeps nothing (see the constructor): then there is no point encoding a value. */
  get saves(): boolean {
    return this.options.discard !== true;
  }

  /**
   * The bytes saved under `name` when they were built from `key`; undefined when nothing is saved
   * or what is saved was built from other content.
   *
   * @example
   * const bytes = await store.cache.get('lexical-index', key);
   */
  async get(name: string, key: string): Promise<Uint8Array | undefined> {
    if (this.options.discard) return undefined;
    const { rows } = await this.db.query<{ data: Uint8Array }>(
      'SELECT data FROM build_cache WHERE name = $1 AND key = $2',
      [name, key],
    );
    const data = rows[0]?.data;
    if (!(data instanceof Uint8Array)) return undefined;
    // node-postgres returns a Buffer (a view into a shared pool, whose `slice` is a view too):
    // copied into a plain array of its own.
    return new Uint8Array(data);
  }

  /**
   * Whether a value is saved under `name` built from `key`, without reading it out (false for a
   * cache that keeps nothing).
   */
  async has(name: string, key: string): Promise<boolean> {
    if (this.options.discard) return false;
    const { rows } = await this.db.query('SELECT 1 FROM build_cache WHERE name = $1 AND key = $2', [
      name,
      key,
    ]);
    return rows.length > 0;
  }

  /** Saves `data` under `name`, built from `key`, replacing what was saved under that name. */
  async put(name: string, key: string, data: Uint8Array): Promise<void> {
    if (this.options.discard) return;
    await this.db.query(
      `INSERT INTO build_cache (name, key, data) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET key = EXCLUDED.key, data = EXCLUDED.data, built_at = now()`,
      [name, key, data],
    );
  }

  /** Forgets every saved value (the chunks they were built from changed). */
  async clear(): Promise<void> {
    await this.db.query('DELETE FROM build_cache');
  }
}
