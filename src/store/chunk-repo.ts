import type { ChunkRecord, DocumentRecord } from '../schema/index.js';
import type { Db } from './db.js';

/** What re-ingesting one document did. */
export type UpsertOutcome = 'added' | 'replaced' | 'unchanged';

/** A `chunks` row as the engines return it (JSONB may come back as text). */
export interface ChunkRow {
  id: string;
  source: string;
  ord: number;
  title: string;
  heading_path: string[] | string;
  domain: string;
  text: string;
  hash: string;
  metadata: Record<string, unknown> | string;
}

const json = <T>(value: T | string): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

/** Reads a `chunks` row into a {@link ChunkRecord}. */
export function chunkFromRow(row: ChunkRow): ChunkRecord {
  return {
    id: row.id,
    source: row.source,
    ord: Number(row.ord),
    title: row.title,
    headingPath: json<string[]>(row.heading_path),
    domain: row.domain,
    text: row.text,
    hash: row.hash,
    metadata: json<Record<string, unknown>>(row.metadata),
  };
}

/** Documents and their chunks. A document is replaced whole when its content hash changes. */
export class ChunkRepo {
  constructor(private readonly db: Db) {}

  /** Content hash of every stored document, by source path. */
  async documentHashes(): Promise<Map<string, string>> {
    const { rows } = await this.db.query<{ source: string; hash: string }>(
      'SELECT source, hash FROM documents',
    );
    return new Map(rows.map((row) => [row.source, row.hash]));
  }

  /** Stores `document` with `chunks`, replacing an older version; a same-hash document is left alone. */
  async upsertDocument(document: DocumentRecord, chunks: ChunkRecord[]): Promise<UpsertOutcome> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ hash: string }>(
        'SELECT hash FROM documents WHERE source = $1',
        [document.source],
      );
      const existing = rows[0];
      if (existing?.hash === document.hash) return 'unchanged';
      if (existing) await tx.query('DELETE FROM documents WHERE source = $1', [document.source]);
      await tx.query(
        'INSERT INTO documents (source, title, hash, domain) VALUES ($1, $2, $3, $4)',
        [document.source, document.title, document.hash, document.domain],
      );
      for (const chunk of chunks) {
        await tx.query(
          `INSERT INTO chunks (id, source, ord, title, heading_path, domain, text, hash, metadata)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            chunk.id,
            chunk.source,
            chunk.ord,
            chunk.title,
            JSON.stringify(chunk.headingPath),
            chunk.domain,
            chunk.text,
            chunk.hash,
            JSON.stringify(chunk.metadata),
          ],
        );
      }
      return existing ? 'replaced' : 'added';
    });
  }

  /** Removes a document and its chunks; true when it existed. */
  async removeDocument(source: string): Promise<boolean> {
    const { rows } = await this.db.query<{ source: string }>(
      'DELETE FROM documents WHERE source = $1 RETURNING source',
      [source],
    );
    return rows.length > 0;
  }

  /** Every chunk, in document order: the lexical index is built from these. */
  async all(): Promise<ChunkRecord[]> {
    const { rows } = await this.db.query<ChunkRow>(
      'SELECT id, source, ord, title, heading_path, domain, text, hash, metadata FROM chunks ORDER BY source, ord',
    );
    return rows.map(chunkFromRow);
  }

  /** Every stored document (source, title, domain, hash), by source path. */
  async documents(): Promise<DocumentRecord[]> {
    const { rows } = await this.db.query<DocumentRecord>(
      'SELECT source, title, hash, domain FROM documents ORDER BY source',
    );
    return rows;
  }

  /** The chunks of one document, in order; empty when no such document is stored. */
  async ofDocument(source: string): Promise<ChunkRecord[]> {
    const { rows } = await this.db.query<ChunkRow>(
      'SELECT id, source, ord, title, heading_path, domain, text, hash, metadata FROM chunks WHERE source = $1 ORDER BY ord',
      [source],
    );
    return rows.map(chunkFromRow);
  }

  /** Number of stored chunks. */
  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: number | string }>(
      'SELECT count(*) AS n FROM chunks',
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** A change counter for caches: changes whenever documents are added, replaced or removed. */
  async version(): Promise<string> {
    const { rows } = await this.db.query<{ v: string | null; n: number | string }>(
      'SELECT max(ingested_at)::text AS v, count(*) AS n FROM documents',
    );
    return `${rows[0]?.n ?? 0}:${rows[0]?.v ?? ''}`;
  }
}
