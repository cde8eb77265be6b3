import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServeProcess } from '../test/serve-process.js';
import {
  startThrowawayPostgres,
  throwawayPostgresSkip,
  type ThrowawayPostgres,
} from '../test/throwaway-postgres.js';

// `cohort serve` on PostgreSQL while the database server really restarts (its own throwaway
// cluster, stopped with a fast shutdown that terminates every connection) under client traffic.

const workspace = mkdtempSync(join(tmpdir(), 'cohort-db-restart-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
const noCluster = throwawayPostgresSkip();

const chat = async (url: string, query: string, session?: string) => {
  try {
    const res = await fetch(`${url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, ...(session ? { session_id: session } : {}) }),
    });
    return { status: res.status, body: await res.text() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
};

describe.skipIf(noCluster)(
  `cohort serve across a database restart${noCluster ? ` (skipped: ${noCluster})` : ''}`,
  () => {
    it('keeps running, answers 503 while the database is down, and 200 once it is back', async () => {
      const cluster: ThrowawayPostgres = await startThrowawayPostgres();
      const server = await startServeProcess(
        { DATABASE_URL: cluster.url, COHORT_LOG_LEVEL: 'warn' },
        workspace,
      ).catch((error: unknown) => {
        cluster.destroy();
        throw error;
      });
      try {
        // Clients connected and pooled connections open: several turns of sessions at once (a
        // session's turn reads and saves its history; an anonymous answer may not touch the
        // database at all, its trace being written after the reply).
        const warm = await Promise.all(
          Array.from({ length: 6 }, () => chat(server.url, 'What is a ROS 2 topic?', randomUUID())),
        );
        expect(warm.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
        const load = Array.from({ length: 10 }, () => chat(server.url, 'What is URDF?'));
        cluster.stop();
        const during = await Promise.all(load);
        // Whatever was in flight got an answer or an honest 503, never a dropped connection.
        for (const reply of during) expect([200, 503]).toContain(reply.status);
        // A turn of a session reads and saves its history, so it needs the database. (An
        // anonymous answer may still be served from the in-memory index: its trace is written
        // after the reply, and a failed write is logged, not the user's error.)
        const down = await chat(server.url, 'What is a node?', randomUUID());
        expect(down.status).toBe(503);
        expect(JSON.parse(down.body)).toMatchObject({ error: { code: 'store_unavailable' } });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(server.alive()).toBe(true);
        // The pool heard the dropped connections (logged, not fatal).
        expect(server.stderr()).toContain('database_connection_lost');
        cluster.start();
        const back = await chat(server.url, 'What is a ROS 2 topic?');
        expect(back.status).toBe(200);
        expect(server.alive()).toBe(true);
      } finally {
        await server.stop();
        cluster.destroy();
      }
    }, 120_000);
  },
);
