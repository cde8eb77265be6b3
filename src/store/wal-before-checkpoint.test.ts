import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteDb } from './pglite-db.js';
import { snapshotPath } from './pglite-snapshot.js';
import { readSnapshot } from './snapshot-unpack.js';
import { checkpointRedo, walNeverRead } from './wal-before-checkpoint.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-wal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SEGMENT = 16 * 1024 * 1024;

describe('the log a fresh data folder never reads again', () => {
  it('is the pages of a segment between its first page and the redo point’s page', () => {
    const first = ['pg_wal', '000000010000000000000001'];
    // Segment 1 starts at LSN 16 MB; the redo point 0x16ef920 is 0x6ef920 into it.
    expect(walNeverRead(first, SEGMENT, 0x16ef920n)).toEqual({ start: 0x2000, end: 0x6ee000 });
    // A redo point on the segment's first or second page: nothing to leave out.
    expect(walNeverRead(first, SEGMENT, 0x1000100n)).toBeUndefined();
    expect(walNeverRead(first, SEGMENT, 0x1002100n)).toBeUndefined();
    // A later segment than the redo point's, or a log id above 0: read in full.
    expect(walNeverRead(['pg_wal', '000000010000000000000002'], SEGMENT, 0x16ef920n)).toBe(
      undefined,
    );
    expect(walNeverRead(['pg_wal', '000000010000000100000000'], SEGMENT, 0x16ef920n)).toBe(
      undefined,
    );
    // A segment wholly before the redo point: all but its first page.
    expect(walNeverRead(first, SEGMENT, 0x3000000n)).toEqual({ start: 0x2000, end: SEGMENT });
    // Not a WAL segment.
    expect(walNeverRead(['base', '5', '1259'], SEGMENT, 0x16ef920n)).toBeUndefined();
    expect(walNeverRead(['pg_wal', 'archive_status'], SEGMENT, 0x16ef920n)).toBeUndefined();
    expect(walNeverRead(first, 1000, 0x16ef920n)).toBeUndefined();
  });

  it('is read from a real fresh folder, and memory:// started without it works', async () => {
    const cache = join(root, 'cache');
    const first = await openPgliteDb('memory://', { snapshotDir: cache });
    await first.close();
    const saved = snapshotPath(cache);
    const savedAt = statSync(saved).mtimeMs;
    const redo = checkpointRedo(saved);
    expect(typeof redo).toBe('bigint');
    // The redo point is in the fresh log's written part: its page is not zeros.
    let range: { start: number; end: number } | undefined;
    readSnapshot(saved, (member) => {
      const found = member.kind === 'file' && walNeverRead(member.parts, member.size, redo!);
      if (!found) return;
      range = found;
      const page = new Uint8Array(8192);
      member.read(page, found.end, page.length);
      expect(page.some((byte) => byte !== 0)).toBe(true);
    });
    expect(range!.end - range!.start).toBeGreaterThan(1024 * 1024);

    const db = await openPgliteDb('memory://', { snapshotDir: cache });
    try {
      await db.exec('CREATE TABLE notes (id INT PRIMARY KEY, body TEXT)');
      await db.exec(
        "INSERT INTO notes SELECT n, repeat('x', 500) FROM generate_series(1, 20000) AS n",
      );
      await db.exec('CHECKPOINT');
      await db.exec('UPDATE notes SET body = body || n::text FROM generate_series(1, 1) AS n');
      const { rows } = await db.query<{ n: number; names: string }>(
        "SELECT count(*)::int AS n, (SELECT string_agg(datname, ',' ORDER BY oid) FROM pg_database) AS names FROM notes",
      );
      // The snapshot holds one database (initdb's templates are dropped when it is made).
      expect(rows).toEqual([{ n: 20000, names: 'postgres' }]);
    } finally {
      await db.close();
    }
    // Started from the snapshot (one it could not start from would have been replaced).
    expect(statSync(saved).mtimeMs).toBe(savedAt);
    expect(readFileSync(saved).length).toBeGreaterThan(SEGMENT);
  }, 120_000);
});
