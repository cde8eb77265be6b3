import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createStore, type Store } from '../store/store.js';
import { openPgliteDb } from '../store/pglite-db.js';
import { openPostgresDb } from '../store/postgres-db.js';

/** A store engine a test suite can run against. */
export interface TestEngine {
  name: 'pglite' | 'pglite-folder' | 'postgres';
  /** Why the engine is skipped, when it is. */
  skip?: string;
  open(): Promise<Store>;
}

/**
 * The engines to test the store on: PGlite in memory and in a data folder always; PostgreSQL when
 * COHORT_TEST_DATABASE_URL is set (CI starts one), each suite in a fresh schema of its own.
 */
export function testEngines(env = process.env): TestEngine[] {
  const url = env.COHORT_TEST_DATABASE_URL;
  return [
    { name: 'pglite', open: async () => createStore(await openPgliteDb('memory://')) },
    {
      // A data folder: the engine runs on its worker thread, with the folder lock and fsync.
      name: 'pglite-folder',
      open: async () =>
        createStore(await openPgliteDb(mkdtempSync(join(tmpdir(), 'cohort-store-')))),
    },
    {
      name: 'postgres',
      ...(url
        ? {}
        : {
            skip: 'COHORT_TEST_DATABASE_URL is not set (run scripts/postgres-test-server.sh start)',
          }),
      async open() {
        const schema = `test_${randomUUID().replace(/-/g, '')}`;
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`CREATE SCHEMA ${schema}`);
        await admin.end();
        const separator = url?.includes('?') ? '&' : '?';
        return createStore(
          await openPostgresDb(`${url}${separator}options=-csearch_path%3D${schema}`),
        );
      },
    },
  ];
}
