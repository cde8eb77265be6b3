import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBatch } from './db.js';
import { openPgliteDb } from './pglite-db.js';

const folder = mkdtempSync(join(tmpdir(), 'cohort-batch-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('batches on the embedded engine (group commit on its thread)', () => {
  it('commits concurrent batches together, each all or none: a failing one fails alone', async () => {
    const db = await openPgliteDb(folder);
    try {
      await db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, n INT NOT NULL)');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) =>
          runBatch(db, [
            { sql: 'INSERT INTO t (k, n) VALUES ($1, $2)', params: [`a${i}`, i] },
            // Batch 17's second statement breaks a constraint: its first must not stay either.
            { sql: 'INSERT INTO t (k, n) VALUES ($1, $2)', params: [`b${i}`, i === 17 ? null : i] },
          ]),
        ),
      );
      const failed = outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [i] : []));
      expect(failed).toEqual([17]);
      expect(String((outcomes[17] as PromiseRejectedResult).reason)).toMatch(/null value/);
      const { rows } = await db.query<{ k: string }>('SELECT k FROM t ORDER BY k');
      expect(rows).toHaveLength(78);
      expect(rows.map((row) => row.k)).not.toContain('a17');
    } finally {
      await db.close();
    }
  });

  it('keeps the order of one caller: batches sent one after another are stored in that order', async () => {
    const db = await openPgliteDb(mkdtempSync(join(folder, 'order-')));
    try {
      await db.exec('CREATE TABLE log (id SERIAL PRIMARY KEY, v INT NOT NULL)');
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          runBatch(db, [{ sql: 'INSERT INTO log (v) VALUES ($1)', params: [i] }]),
        ),
      );
      const { rows } = await db.query<{ v: number }>('SELECT v FROM log ORDER BY id');
      expect(rows.map((row) => row.v)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    } finally {
      await db.close();
    }
  });
});
