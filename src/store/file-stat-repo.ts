import { runBatch, type Db } from './db.js';

/**
 * What an ingestion saw of one file whose text it hashed: the file's `stat` (size, times, inode,
 * device and parser version, as the ingestion writes them), the hash its text had then, and when
 * that ingestion started (`seenNs`, nanoseconds since the epoch). A later ingestion that finds
 * the same `stat` need not read the file again (see `retrieval/ingest/file-stat.ts`).
 */
export interface FileStatRecord {
  source: string;
  stat: string;
  hash: string;
  seenNs: bigint;
}

/**
 * The recorded stats of files whose document still has the hash they were recorded with: a row
 * whose document was written since by other means (a store another cohort ingested into) is not
 * returned, so it cannot vouch for text it did not see.
 */
export async function readFileStats(db: Db): Promise<Map<string, FileStatRecord>> {
  const { rows } = await db.query<{
    source: string;
    stat: string;
    hash: string;
    seen_ns: string | number | bigint;
  }>(
    `SELECT f.source, f.stat, f.hash, f.seen_ns::text AS seen_ns
       FROM file_stats f JOIN documents d ON d.source = f.source AND d.hash = f.hash`,
  );
  return new Map(
    rows.map((row) => [
      row.source,
      { source: row.source, stat: row.stat, hash: row.hash, seenNs: BigInt(row.seen_ns) },
    ]),
  );
}

/**
 * Records `write` (replacing each source's row) and deletes the rows of `forget`, in one
 * transaction. A row is written only where its document is stored with its hash (a document the
 * ingestion could not store gets none). Rows only save reading files again: a store where this
 * never ran, or ran only in part, hashes the files it has no row for.
 */
export async function recordFileStats(
  db: Db,
  change: { write: readonly FileStatRecord[]; forget: readonly string[] },
): Promise<void> {
  if (change.write.length === 0 && change.forget.length === 0) return;
  const { write } = change;
  await runBatch(db, [
    {
      sql: 'DELETE FROM file_stats WHERE source = ANY($1::text[])',
      params: [[...change.forget, ...write.map((record) => record.source)]],
    },
    {
      sql: `INSERT INTO file_stats (source, stat, hash, seen_ns)
              SELECT v.source, v.stat, v.hash, v.seen_ns::bigint
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS v(source, stat, hash, seen_ns)
                JOIN documents d ON d.source = v.source AND d.hash = v.hash`,
      params: [
        write.map((record) => record.source),
        write.map((record) => record.stat),
        write.map((record) => record.hash),
        write.map((record) => record.seenNs.toString()),
      ],
    },
  ]);
}
