import { CohortError } from '../errors/index.js';
import type { Db } from './db.js';

/**
 * Schema migrations, applied in order once each. Plain PostgreSQL 15 SQL so the same statements
 * run on PGlite and on a PostgreSQL server.
 */
export const MIGRATIONS: readonly { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'documents, chunks, sessions, runs',
    sql: `
      CREATE TABLE IF NOT EXISTS documents (
        source TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        hash TEXT NOT NULL,
        domain TEXT NOT NULL,
        ingested_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE TABLE IF NOT EXISTS chunks (
        id TEXT PRIMARY KEY,
        source TEXT NOT NULL REFERENCES documents(source) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        title TEXT NOT NULL,
        heading_path JSONB NOT NULL DEFAULT '[]',
        domain TEXT NOT NULL,
        text TEXT NOT NULL,
        hash TEXT NOT NULL,
        metadata JSONB NOT NULL DEFAULT '{}'
      );
      CREATE INDEX IF NOT EXISTS chunks_source_idx ON chunks (source);
      CREATE INDEX IF NOT EXISTS chunks_domain_idx ON chunks (domain);
      CREATE TABLE IF NOT EXISTS messages (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        session_id TEXT NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        agent_name TEXT,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS messages_session_idx ON messages (session_id, id);
      CREATE TABLE IF NOT EXISTS runs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        input JSONB NOT NULL DEFAULT '{}',
        output JSONB,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE TABLE IF NOT EXISTS run_tasks (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        task_id TEXT NOT NULL,
        status TEXT NOT NULL,
        output JSONB,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (run_id, task_id)
      );
      CREATE TABLE IF NOT EXISTS meta (
        key TEXT PRIMARY KEY,
        value JSONB NOT NULL
      );
    `,
  },
  {
    id: 2,
    name: 'session owners',
    sql: `
      CREATE TABLE IF NOT EXISTS session_owners (
        session_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: 3,
    name: 'run spans (trace view)',
    sql: `
      CREATE TABLE IF NOT EXISTS run_spans (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        span_id TEXT NOT NULL,
        parent_id TEXT,
        name TEXT NOT NULL,
        start_ms DOUBLE PRECISION NOT NULL,
        duration_ms DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        attributes JSONB NOT NULL DEFAULT '{}',
        PRIMARY KEY (run_id, span_id)
      );
    `,
  },
  {
    id: 4,
    name: 'build cache (saved lexical index and router knowledge)',
    sql: `
      CREATE TABLE IF NOT EXISTS build_cache (
        name TEXT PRIMARY KEY,
        key TEXT NOT NULL,
        data BYTEA NOT NULL,
        built_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: 5,
    name: 'owners of sessions and runs (session_owners generalised)',
    // Written to run again safely: a store whose schema_migrations was lost re-creates an empty
    // session_owners (migration 2), which this copies from and drops. Not additive: a process of
    // a cohort from before it, still running on a shared PostgreSQL, fails every session check
    // ('relation "session_owners" does not exist'); stop those first (docs: README, Upgrading).
    // From here on such a process refuses a newer schema at start (`migrate`).
    sql: `
      CREATE TABLE IF NOT EXISTS owners (
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        owner TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (kind, id)
      );
      INSERT INTO owners (kind, id, owner, created_at)
        SELECT 'session', session_id, owner, created_at FROM session_owners
        ON CONFLICT (kind, id) DO NOTHING;
      DROP TABLE session_owners;
    `,
  },
  {
    id: 6,
    name: 'build cache values stored uncompressed',
    // The values are written whole by one process and read whole by the next: compressing them
    // (pglz, on the engine's thread) took about half of the time of writing the ROS 2 docs'
    // router and index (4.8 MB, stored in 2.2), and reading them back decompressed them again.
    // A catalogue change only: values already saved stay as they are.
    sql: `ALTER TABLE build_cache ALTER COLUMN data SET STORAGE EXTERNAL;`,
  },
  {
    id: 7,
    name: 'run claims (one process works on a run at a time)',
    // Additive: a process of a cohort from before it reads and writes runs as before (it takes
    // no claims, so it can still resume a run another process works on; stop those first).
    // `claimed_by` names the process and the claim, `claimed_until` is its lease (`run-claim.ts`).
    sql: `
      ALTER TABLE runs ADD COLUMN IF NOT EXISTS claimed_by TEXT;
      ALTER TABLE runs ADD COLUMN IF NOT EXISTS claimed_until TIMESTAMPTZ;
    `,
  },
  {
    id: 8,
    name: 'file stats (an unchanged file is not read again)',
    // Additive: a store without rows here hashes every file, as before (file-stat-repo.ts). A row
    // goes with its document (a replaced or removed document's row is deleted with it), and is
    // trusted only while its hash is the document's.
    sql: `
      CREATE TABLE IF NOT EXISTS file_stats (
        source TEXT PRIMARY KEY REFERENCES documents(source) ON DELETE CASCADE,
        stat TEXT NOT NULL,
        hash TEXT NOT NULL,
        seen_ns BIGINT NOT NULL
      );
    `,
  },
];

/** PostgreSQL's SQLSTATE for a table that does not exist. */
const UNDEFINED_TABLE = '42P01';

/**
 * The ids recorded in `schema_migrations`, creating the table on a new store. Read first, and the
 * table created only when the read finds none: on an existing store (every start but the first)
 * the `CREATE TABLE IF NOT EXISTS` is skipped, which cost 70–150 ms as PGlite's first statement
 * against 3–40 ms for the read.
 */
async function appliedMigrations(db: Db): Promise<Set<number>> {
  const read = async () => {
    const { rows } = await db.query<{ id: number }>('SELECT id FROM schema_migrations');
    return new Set(rows.map((row) => Number(row.id)));
  };
  try {
    return await read();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== UNDEFINED_TABLE) throw error;
  }
  await db.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
  );
  return read();
}

/** The last migration this cohort knows. */
const NEWEST_MIGRATION = Math.max(...MIGRATIONS.map((migration) => migration.id));

/**
 * Applies the migrations not yet recorded in `schema_migrations`. A store a newer cohort migrated
 * (a migration id past {@link NEWEST_MIGRATION}) is refused: this process's statements may no
 * longer fit its tables (a shared PostgreSQL during an upgrade).
 */
export async function migrate(db: Db): Promise<void> {
  const applied = await appliedMigrations(db);
  const newer = [...applied].filter((id) => id > NEWEST_MIGRATION);
  if (newer.length > 0)
    throw new CohortError(
      'internal',
      `This database was migrated by a newer cohort (schema migration ${Math.max(...newer)}; this cohort knows up to ${NEWEST_MIGRATION}): its tables may not be what this version reads and writes. Run the newer cohort here, or upgrade this one; stop older processes before starting a newer one on a shared database.`,
    );
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.id)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [
        migration.id,
        migration.name,
      ]);
    });
  }
}
