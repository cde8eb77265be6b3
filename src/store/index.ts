export type { Db } from './db.js';
export {
  ChunkRepo,
  chunkContentHash,
  type DocumentWrite,
  type UpsertOutcome,
} from './chunk-repo.js';
export { BuildCacheRepo } from './build-cache-repo.js';
export type { FileStatRecord } from './file-stat-repo.js';
export { insertRows, INSERT_BATCH_ROWS } from './insert-rows.js';
export {
  acquireFolderLock,
  LOCK_FILE_NAME,
  thisLockHolder,
  type FolderLock,
  type LockHolder,
} from './folder-lock.js';
export { createDataFolder, isNewDataFolder } from './data-folder.js';
export { UNFINISHED_FOLDER_FILE } from './unfinished-folder.js';
export { SessionRepo } from './session-repo.js';
export { OwnerRepo, type OwnedKind } from './owner-repo.js';
export { MetaRepo } from './meta-repo.js';
export {
  RunRepo,
  TRACE_FLUSH_DELAY_MS,
  TRACE_FLUSH_SPANS,
  type RunRecord,
  type RunTaskRecord,
  type TracedRun,
} from './run-repo.js';
export { RUN_CLAIM_LEASE_MS, type RunBusy, type RunHold } from './run-claim.js';
export { assertDataFolder, createStore, openStore, storeFolder, type Store } from './store.js';
export { openPgliteDb } from './pglite-db.js';
export { openPostgresDb } from './postgres-db.js';
export { migrate, MIGRATIONS } from './migrations.js';
export { EmbeddingRepo, type VectorHit } from './embedding-repo.js';
export { sourceFingerprint } from './source-fingerprint.js';
export {
  START_CACHE_FILE,
  invalidateStartCache,
  readStartCache,
  readStartCacheStamp,
  writeStartCache,
  type StartCache,
} from './start-cache.js';
export { chunksAfterIngestion } from './ingested-chunks.js';
export { startCachedStore, type EngineHooks, type StartCachedStore } from './start-cached-store.js';
export {
  folderFingerprint,
  isStartCacheSealed,
  MAX_SEALED_SESSIONS,
  readStartCacheSeal,
  sealStartCache,
  type StartCacheSeal,
  START_CACHE_SEAL_FILE,
} from './start-cache-seal.js';
export {
  appendTraceJournal,
  foldTraceJournal,
  readTraceJournal,
  TRACE_JOURNAL_FILE,
  type JournalTrace,
} from './trace-journal.js';
export {
  foldSessionJournal,
  MAX_SESSION_JOURNAL_BYTES,
  openSessionJournal,
  readSessionJournal,
  SESSION_JOURNAL_FILE,
  type SessionJournal,
} from './session-journal.js';
export { damagedDataError } from './damaged-data.js';
export { diskFullError, storeFaultError } from './store-fault.js';
