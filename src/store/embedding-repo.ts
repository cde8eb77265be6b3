import { CohortError } from '../errors/index.js';
import type { ChunkRecord } from '../schema/index.js';
import { chunkFromRow, type ChunkRow } from './chunk-repo.js';
import type { Db } from './db.js';
import { insertRows } from './insert-rows.js';

/** A chunk found by vector similarity. */
export interface VectorHit {
  chunk: ChunkRecord;
  /** Cosine similarity, -1..1. */
  similarity: number;
}

const json = <T>(value: T | string): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

/**
 * Chunk embeddings in a pgvector column (PGlite with the pgvector extension, or PostgreSQL with
 * pgvector installed). Created on first use, so stores without embeddings never need pgvector.
 * One row per chunk and embedding model; a chunk replaced at re-ingestion loses its vector with it.
 */
export class EmbeddingRepo {
  #ready: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

  /** Creates the extension and table if missing. */
  ensure(): Promise<void> {
    this.#ready ??= this.db.exec(`
      CREATE EXTENSION IF NOT EXISTS vector;
      CREATE TABLE IF NOT EXISTS chunk_embeddings (
        chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        embedding vector NOT NULL,
        PRIMARY KEY (chunk_id, model)
      );
    `);
    return this.#ready;
  }

  /** Chunks that have no embedding for `model` yet. */
  async missing(model: string): Promise<{ id: string; text: string; headingPath: string[] }[]> {
    await this.ensure();
    const { rows } = await this.db.query<Pick<ChunkRow, 'id' | 'text' | 'heading_path'>>(
      `SELECT c.id, c.text, c.heading_path FROM chunks c
       WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id AND e.model = $1)
       ORDER BY c.source, c.ord`,
      [model],
    );
    return rows.map((row) => ({
      id: row.id,
      text: row.text,
      headingPath: json<string[]>(row.heading_path),
    }));
  }

  /**
   * Stores vectors for chunks. They must all have the length of the vectors already kept for
   * `model`: vectors of two lengths in one model's column cannot be compared with one question.
   */
  async save(
    model: string,
    rows: readonly { id: string; vector: readonly number[] }[],
  ): Promise<void> {
    await this.ensure();
    const stored = await this.dimensions(model);
    const lengths = new Set(rows.map((row) => row.vector.length));
    if (stored !== undefined) lengths.add(stored);
    if (lengths.size > 1 || lengths.has(0)) {
      const found = [...lengths].sort((a, b) => a - b).join(', ');
      throw new CohortError(
        'model_unavailable',
        `Vectors of ${found} numbers for the embedding model "${model}"${stored !== undefined ? ` (the store keeps ${stored})` : ''}: one model gives vectors of one length. Check COHORT_EMBEDDING_MODEL, or name the new model differently.`,
      );
    }
    await this.db.transaction((tx) =>
      insertRows(
        tx,
        'chunk_embeddings',
        ['chunk_id', 'model', 'embedding'],
        rows.map((row) => [row.id, model, JSON.stringify(row.vector)]),
        {
          casts: { embedding: 'vector' },
          suffix: 'ON CONFLICT (chunk_id, model) DO UPDATE SET embedding = EXCLUDED.embedding',
        },
      ),
    );
  }

  /** Length of the vectors kept for `model`, or undefined when it has none. */
  async dimensions(model: string): Promise<number | undefined> {
    await this.ensure();
    const { rows } = await this.db.query<{ n: number | string }>(
      'SELECT vector_dims(embedding) AS n FROM chunk_embeddings WHERE model = $1 LIMIT 1',
      [model],
    );
    return rows[0] === undefined ? undefined : Number(rows[0].n);
  }

  /** Number of chunks with a vector for `model`. */
  async count(model: string): Promise<number> {
    await this.ensure();
    const { rows } = await this.db.query<{ n: number | string }>(
      'SELECT count(*) AS n FROM chunk_embeddings WHERE model = $1',
      [model],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * The `limit` chunks nearest to `vector` by cosine distance, optionally in one domain. Only
   * vectors of the same length are compared: a question embedded by a model that changed behind
   * the same name finds nothing here (retrieval stays lexical) instead of failing.
   */
  async nearest(
    model: string,
    vector: readonly number[],
    options: { limit: number; domain?: string },
  ): Promise<VectorHit[]> {
    await this.ensure();
    const { rows } = await this.db.query<ChunkRow & { similarity: number | string }>(
      `SELECT c.id, c.source, c.ord, c.title, c.heading_path, c.domain, c.text, c.hash, c.metadata,
              1 - (e.embedding <=> $2::vector) AS similarity
       FROM chunk_embeddings e JOIN chunks c ON c.id = e.chunk_id
       WHERE e.model = $1 AND ($3::text IS NULL OR c.domain = $3)
         AND vector_dims(e.embedding) = $5
       ORDER BY e.embedding <=> $2::vector
       LIMIT $4`,
      [model, JSON.stringify(vector), options.domain ?? null, options.limit, vector.length],
    );
    return rows.map((row) => ({ chunk: chunkFromRow(row), similarity: Number(row.similarity) }));
  }
}
