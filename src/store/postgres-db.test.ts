import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startThrowawayPostgres, throwawayPostgresSkip } from '../test/throwaway-postgres.js';
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

const noCluster = throwawayPostgresSkip();
describe.skipIf(noCluster)(
  `PostgreSQL pool across a real server restart${noCluster ? ` (skipped: ${noCluster})` : ''}`,
  () => {
    it('hears every pooled connection drop, fails queries while down, and reconnects after', async () => {
      const cluster = await startThrowawayPostgres();
      const dropped: Error[] = [];
      const db = await openPostgresDb(cluster.url, { onIdleError: (error) => dropped.push(error) });
      try {
        // Four connections at once, so the pool holds four idle connections afterwards.
        const before = await Promise.all(
          Array.from({ length: 4 }, () =>
            db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.1)'),
          ),
        );
        const oldPids = new Set(before.map((result) => result.rows[0]?.pid));
        expect(oldPids.size).toBe(4);
        // A query in flight when the server goes down fails with an error value, not a crash.
        const inFlight = db.query('SELECT pg_sleep(10)').then(
          () => 'finished',
          (error: Error) => error.message,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        cluster.stop();
        expect(await inFlight).toMatch(/terminat|shut ?down|connection/i);
        await new Promise((resolve) => setTimeout(resolve, 200));
        // Each idle pooled connection (the three not running the query above) was really dropped,
        // and the pool heard about each one instead of letting the process crash.
        expect(dropped).toHaveLength(3);
        await expect(db.query('SELECT 1')).rejects.toThrow(/ECONNREFUSED|connect/i);
        cluster.start();
        const after = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        expect(oldPids.has(after.rows[0]?.pid)).toBe(false);
      } finally {
        await db.close();
        cluster.destroy();
      }
    }, 60_000);

    it('survives the server ending a connection in the middle of a transaction', async () => {
      // Found by the soak's restart drill: a checked-out connection has no pool listener, so its
      // 'error' event crashed `cohort serve` (57P01 terminating connection due to administrator command).
      const cluster = await startThrowawayPostgres();
      const dropped: Error[] = [];
      const db = await openPostgresDb(cluster.url, { onIdleError: (error) => dropped.push(error) });
      try {
        const outcome = await db
          .transaction(async (tx) => {
            await tx.query('SELECT 1');
            cluster.stop();
            // The server's goodbye arrives while the transaction holds the connection.
            await new Promise((resolve) => setTimeout(resolve, 300));
            await tx.query('SELECT 2');
            return 'committed';
          })
          .catch((error: Error) => `failed: ${error.message}`);
        expect(outcome).toMatch(/^failed: /);
        expect(dropped.some((error) => /terminat/i.test(error.message))).toBe(true);
        cluster.start();
        const again = await db.transaction((tx) => tx.query<{ one: number }>('SELECT 1 AS one'));
        expect(again.rows[0]?.one).toBe(1);
      } finally {
        await db.close();
        cluster.destroy();
      }
    }, 60_000);
  },
);
