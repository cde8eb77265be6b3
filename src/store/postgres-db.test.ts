import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresDb } from './postgres-db.js';

const url = process.env.COHORT_TEST_DATABASE_URL;

describe.skipIf(!url)(
  `PostgreSQL pool${url ? '' : ' (skipped: COHORT_TEST_DATABASE_URL is not set)'}`,
  () => {
    it('survives the database dropping its connections (a restart) and reconnects', async () => {
      const dropped: Error[] = [];
      const db = await openPostgresDb(url as string, {
        onIdleError: (error) => dropped.push(error),
      });
      try {
        const { rows } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // What a restart does to a pooled connection that sits idle: the server ends it.
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
        await admin.end();
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(dropped.length).toBe(1);
        const again = await db.query<{ one: number }>('SELECT 1 AS one');
        expect(again.rows[0]?.one).toBe(1);
      } finally {
        await db.close();
      }
    });
  },
);
