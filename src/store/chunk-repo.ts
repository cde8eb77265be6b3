import { createHash, hash as oneShotHash } from 'node:crypto';
import type { ChunkRecord, DocumentRecord } from '../schema/index.js';
import type { Db } from './db.js';
import { readFileStats, recordFileStats, type FileStatRecord } from './file-stat-repo.js';
import { INSERT_BATCH_ROWS, insertStatements, sendRows } from './insert-rows.js';
import { setMetaValue } from './meta-repo.js';

/** One document and its chunks, as an ingestion writes them. */
export interface DocumentWrite {
  document: DocumentRecord;
  chunks: readonly ChunkRecord[];
}

const CHUNK_COLUMNS = [
  'id',
  'source',
  'ord',
  'title',
  'heading_path',
  'domain',
  'text',
  'hash',
  'metadata',
];

const chunkRow = (chunk: ChunkRecord): unknown[] => [
  chunk.id,
  chunk.source,
  chunk.ord,
  chunk.title,
  JSON.stringify(chunk.headingPath),
  chunk.domain,
  chunk.text,
  chunk.hash,
  JSON.stringify(chunk.metadata),
];

/**
 * What a chunk's content hash covers besides its own `hash` (which covers its source, heading path
 * and text): its domain and title. Must match {@link CONTENT_HASH_SQL} character for character.
 */
const contentLine = (
  chunk: Pick<ChunkRecord, 'id' | 'hash' | 'domain' | 'title'>,
  titleHash: (title: string) => string,
) => `${chunk.id}:${chunk.hash}:${chunk.domain}:${titleHash(chunk.title)}`;

/** {@link chunkContentHash} computed by the engine, without reading the chunks' text out. */
const CONTENT_HASH_SQL = `SELECT md5(coalesce(string_agg(id || ':' || hash || ':' || domain || ':' || md5(title), ',' ORDER BY source, ord), '')) AS h FROM chunks`;

/**
 * A hash of everything a chunk list's derived values (lexical index, book knowledge) are built
 * from, for `chunks` in store order (as `ChunkRepo.all` returns them). Equal to
 * `ChunkRepo.contentHash()` of a store holding exactly these chunks.
 *
 * @example
 * const key = chunkContentHash(await store.chunks.all());
 */
export function chunkContentHash(
  chunks: readonly Pick<ChunkRecord, 'id' | 'hash' | 'domain' | 'title'>[],
): string {
  // A document's chunks share its title: each title is hashed once a call, not once a chunk
  // (4,341 chunks of the ROS 2 docs, 271 titles; `cohort ingest` computes this five times).
  const titleHashes = new Map<string, string>();
  const titleHash = (title: string) => {
    let hash = titleHashes.get(title);
    if (hash === undefined) {
      hash = oneShotHash('md5', title, 'hex');
      titleHashes.set(title, hash);
    }
    return hash;
  };
  return createHash('md5')
    .update(chunks.map((chunk) => contentLine(chunk, titleHash)).join(','))
    .digest('hex');
}

/**
 * Waits for every write of a transaction (each statement sent, each batch heard), then fails with
 * the first one that failed: the transaction ends (commit or rollback) only once the engine has
 * answered every statement sent in it, whatever order an engine would otherwise run a rollback
 * and the statements still queued.
 */
async function allWritten(writes: readonly Promise<unknown>[]): Promise<void> {
  for (const result of await Promise.allSettled(writes))
    if (result.status === 'rejected') throw result.reason as Error;
}

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
  /**
   * `beforeWrite` runs, synchronously, before an ingestion sends anything to the engine: an
   * embedded store deletes its data folder's start cache there (see start-cache.ts).
   */
  constructor(
    private readonly db: Db,
    private readonly options: { beforeWrite?: () => void } = {},
  ) {}

  /** Content hash of every stored document, by source path. */
  async documentHashes(): Promise<Map<string, string>> {
    const { rows } = await this.db.query<{ source: string; hash: string }>(
      'SELECT source, hash FROM documents',
    );
    return new Map(rows.map((row) => [row.source, row.hash]));
  }

  /** What ingestions recorded of each stored document's file (see file-stat-repo.ts), by source. */
  fileStats(): Promise<Map<string, FileStatRecord>> {
    return readFileStats(this.db);
  }

  /**
   * Records files' stats (see file-stat-repo.ts). Not an ingestion: no chunk changes, so neither
   * `beforeWrite` runs nor the build cache is emptied.
   */
  recordFileStats(change: {
    write: readonly FileStatRecord[];
    forget: readonly string[];
  }): Promise<void> {
    return recordFileStats(this.db, change);
  }

  /** Stores `document` with `chunks`, replacing an older version; a same-hash document is left alone. */
  async upsertDocument(document: DocumentRecord, chunks: ChunkRecord[]): Promise<UpsertOutcome> {
    const { outcomes } = await this.applyIngestion({ write: [{ document, chunks }] });
    return outcomes.get(document.source) ?? 'unchanged';
  }

  /**
   * Applies one ingestion whole, in one transaction: each document of `write` is added, replaced
   * (its old chunks go with it) or left alone when its hash is unchanged, and each source of
   * `remove` is deleted. A crash or an error part-way leaves the store as it was. Rows go in with
   * multi-row INSERTs ({@link insertStatements}), the embedded engine's chunks with a COPY
   * ({@link sendRows}), all sent at once; `onSent` is told once they are
   * all sent (when any document is written), before the engine has answered them, and `onWritten`
   * hears each batch of documents written.
   * `meta` returns `meta` table values (JSON) to keep in the same transaction, from the sources
   * removed, so what an ingestion records about its documents commits with them.
   *
   * @example
   * const { outcomes } = await store.chunks.applyIngestion({ write: [{ document, chunks }] });
   */
  async applyIngestion(change: {
    write: readonly DocumentWrite[];
    remove?: readonly string[];
    onSent?: () => void;
    onWritten?: (sources: string[]) => void;
    meta?: (removed: readonly string[]) => Record<string, unknown>;
  }): Promise<{ outcomes: Map<string, UpsertOutcome>; removed: string[] }> {
    this.options.beforeWrite?.();
    return this.db.transaction(async (tx) => {
      const sources = change.write.map((item) => item.document.source);
      const { rows } = await tx.query<{ source: string; hash: string }>(
        'SELECT source, hash FROM documents WHERE source = ANY($1::text[])',
        [sources],
      );
      const stored = new Map(rows.map((row) => [row.source, row.hash]));
      const outcomes = new Map<string, UpsertOutcome>();
      const changed: DocumentWrite[] = [];
      for (const item of change.write) {
        const hash = stored.get(item.document.source);
        if (hash === item.document.hash) {
          outcomes.set(item.document.source, 'unchanged');
          continue;
        }
        outcomes.set(item.document.source, hash === undefined ? 'added' : 'replaced');
        changed.push(item);
      }
      const replaced = changed
        .map((item) => item.document.source)
        .filter((source) => stored.has(source));
      if (replaced.length > 0) {
        await tx.query('DELETE FROM documents WHERE source = ANY($1::text[])', [replaced]);
      }
      let removed: string[] = [];
      if (change.remove && change.remove.length > 0) {
        const deleted = await tx.query<{ source: string }>(
          'DELETE FROM documents WHERE source = ANY($1::text[]) RETURNING source',
          [change.remove],
        );
        removed = deleted.rows.map((row) => row.source).sort();
      }
      // Asked before anything more is sent: should it throw, no statement is left unanswered.
      const metaValues = Object.entries(change.meta?.(removed) ?? {});
      // Documents go in groups whose chunks fill about one INSERT batch, so progress moves steadily.
      // Every group's statements are sent at once, not each after the last one's answer: the
      // engine runs them in order inside the transaction while this thread does other work
      // (`cohort ingest` builds the router and the index meanwhile), instead of waiting for this
      // thread between two batches.
      const writes: Promise<unknown>[] = [];
      let group: DocumentWrite[] = [];
      let groupChunks = 0;
      const flush = () => {
        if (group.length === 0) return;
        const written = group.map((item) => item.document.source);
        const answers = [
          ...insertStatements(
            'documents',
            ['source', 'title', 'hash', 'domain'],
            group.map(({ document }) => [
              document.source,
              document.title,
              document.hash,
              document.domain,
            ]),
          ).map(({ sql, params }) => tx.query(sql, params)),
          // The embedded engine loads them with a COPY (about half the engine's time of INSERTs).
          ...sendRows(
            tx,
            'chunks',
            CHUNK_COLUMNS,
            group.flatMap((item) => item.chunks.map(chunkRow)),
          ),
        ];
        writes.push(
          ...answers,
          Promise.all(answers).then(() => change.onWritten?.(written)),
        );
        group = [];
        groupChunks = 0;
      };
      for (const item of changed) {
        group.push(item);
        groupChunks += item.chunks.length;
        if (groupChunks >= INSERT_BATCH_ROWS) flush();
      }
      flush();
      // Sent after the rows without waiting for them either, so the transaction can commit as
      // soon as this thread hears the engine's answers.
      // What was built from the old chunks (saved index, book knowledge) no longer holds.
      if (changed.length > 0 || removed.length > 0)
        writes.push(tx.query('DELETE FROM build_cache'));
      for (const [key, value] of metaValues) writes.push(setMetaValue(tx, key, value));
      const answered = allWritten(writes);
      try {
        // The engine works through them from now on: the caller may use this thread meanwhile.
        if (changed.length > 0) change.onSent?.();
        // Nothing more is sent, and nothing here can fail now but a statement (which the engine
        // then rolls back for it): it commits as soon as it has run them, even while the caller
        // keeps this thread busy.
        tx.commitWhenAnswered?.();
      } finally {
        await answered;
      }
      return { outcomes, removed };
    });
  }

  /** Removes a document and its chunks; true when it existed. */
  async removeDocument(source: string): Promise<boolean> {
    const { removed } = await this.applyIngestion({ write: [], remove: [source] });
    return removed.length > 0;
  }

  /** Every chunk, in document order: the lexical index is built from these. */
  async all(): Promise<ChunkRecord[]> {
    const { rows } = await this.db.query<ChunkRow>(
      'SELECT id, source, ord, title, heading_path, domain, text, hash, metadata FROM chunks ORDER BY source, ord',
    );
    return rows.map(chunkFromRow);
  }

  /**
   * Every chunk of the documents not in `sources`, in document order: what an ingestion that
   * just wrote `sources` has not got in hand (see start-cached-store.ts).
   */
  async allExcept(sources: readonly string[]): Promise<ChunkRecord[]> {
    const { rows } = await this.db.query<ChunkRow>(
      'SELECT id, source, ord, title, heading_path, domain, text, hash, metadata FROM chunks WHERE NOT (source = ANY($1::text[])) ORDER BY source, ord',
      [sources],
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

  /**
   * A hash of the stored chunks' content (see {@link chunkContentHash}), computed by the engine:
   * the key under which values built from the chunks are saved in the build cache.
   */
  async contentHash(): Promise<string> {
    const { rows } = await this.db.query<{ h: string }>(CONTENT_HASH_SQL);
    return rows[0]?.h ?? '';
  }

  /** A change counter for caches: changes whenever documents are added, replaced or removed. */
  async version(): Promise<string> {
    const { rows } = await this.db.query<{ v: string | null; n: number | string }>(
      'SELECT max(ingested_at)::text AS v, count(*) AS n FROM documents',
    );
    return `${rows[0]?.n ?? 0}:${rows[0]?.v ?? ''}`;
  }
}
