import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db.js';
import { migrate, MIGRATIONS } from './migrations.js';
import type { Store } from './store.js';
import { testEngines } from '../test/test-engines.js';

/** `db` with every statement it is sent recorded. */
function recording(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    db: {
      ...db,
      query: (sql, params) => {
        statements.push(sql);
        return db.query(sql, params);
      },
      exec: (sql) => {
        statements.push(sql);
        return db.exec(sql);
      },
    },
  };
}

for (const engine of testEngines()) {
  describe.skipIf(engine.skip)(
    `migrate on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`,
    () => {
      let store: Store;
      beforeAll(async () => {
        store = await engine.open();
      });
      afterAll(() => store.close());

      it('records every migration on a new store', async () => {
        const { rows } = await store.db.query<{ id: number }>(
          'SELECT id FROM schema_migrations ORDER BY id',
        );
        expect(rows.map((row) => Number(row.id))).toEqual(MIGRATIONS.map((m) => m.id));
      });

      it('stores build cache values uncompressed, out of line', async () => {
        const { rows } = await store.db.query<{ storage: string }>(
          `SELECT attstorage AS storage FROM pg_attribute
             WHERE attrelid = 'build_cache'::regclass AND attname = 'data'`,
        );
        expect(rows[0]?.storage).toBe('e');
        const bytes = new Uint8Array(64 * 1024); // zeros: pglz would store them in a few bytes
        await store.cache.put('migration-test', 'key', bytes);
        const sizes = await store.db.query<{ stored: number | string }>(
          "SELECT pg_column_size(data) AS stored FROM build_cache WHERE name = 'migration-test'",
        );
        expect(Number(sizes.rows[0]?.stored)).toBeGreaterThanOrEqual(bytes.length);
        expect(await store.cache.get('migration-test', 'key')).toEqual(bytes);
      });

      it('sends an up-to-date store one read and no DDL (each start after the first)', async () => {
        const { db, statements } = recording(store.db);
        await migrate(db);
        expect(statements).toEqual(['SELECT id FROM schema_migrations']);
      });

      it('creates the table and applies everything when schema_migrations is missing', async () => {
        await store.db.exec('DROP TABLE schema_migrations');
        await migrate(store.db);
        const { rows } = await store.db.query<{ n: number | string }>(
          'SELECT count(*) AS n FROM schema_migrations',
        );
        expect(Number(rows[0]?.n)).toBe(MIGRATIONS.length);
      });

      it('refuses a store a newer cohort migrated, naming both versions', async () => {
        // An older process on a shared PostgreSQL read and wrote tables a newer one had changed
        // (migration 5 dropped session_owners): every session check failed with a bare SQL error.
        const newer = Math.max(...MIGRATIONS.map((m) => m.id)) + 1;
        await store.db.exec(
          `INSERT INTO schema_migrations (id, name) VALUES (${newer}, 'from a newer cohort')`,
        );
        try {
          await expect(migrate(store.db)).rejects.toThrow(
            `This database was migrated by a newer cohort (schema migration ${newer}; this cohort knows up to ${newer - 1})`,
          );
        } finally {
          await store.db.exec(`DELETE FROM schema_migrations WHERE id = ${newer}`);
        }
        await migrate(store.db);
      });

      it('moves the owners of sessions recorded before runs had owners into owners', async () => {
        await store.db.exec(`
          CREATE TABLE session_owners (session_id TEXT PRIMARY KEY, owner TEXT NOT NULL,
            created_at TIMESTAMPTZ NOT NULL DEFAULT now());
          INSERT INTO session_owners (session_id, owner) VALUES ('s-old', 'key-a');
          DELETE FROM schema_migrations WHERE id = 5;
        `);
        await migrate(store.db);
        expect(await store.sessions.ownerOf('s-old')).toBe('key-a');
        expect(await store.owners.ownerOf('run', 's-old')).toBeUndefined();
        const { rows } = await store.db.query<{ n: number | string }>(
          "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'session_owners'",
        );
        expect(Number(rows[0]?.n)).toBe(0);
      });
    },
  );
}
