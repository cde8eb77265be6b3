export type { Db } from './db.js';
export { ChunkRepo, type UpsertOutcome } from './chunk-repo.js';
export { SessionRepo } from './session-repo.js';
export { RunRepo, type RunRecord, type RunTaskRecord } from './run-repo.js';
export { createStore, openStore, type Store } from './store.js';
export { openPgliteDb } from './pglite-db.js';
export { openPostgresDb } from './postgres-db.js';
export { migrate, MIGRATIONS } from './migrations.js';
export { EmbeddingRepo, type VectorHit } from './embedding-repo.js';
