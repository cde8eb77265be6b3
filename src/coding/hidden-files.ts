import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CohortConfig } from '../config/index.js';
import {
  LOCK_FILE_NAME,
  SESSION_JOURNAL_FILE,
  START_CACHE_FILE,
  START_CACHE_SEAL_FILE,
  storeFolder,
  TRACE_JOURNAL_FILE,
  UNFINISHED_FOLDER_FILE,
} from '../store/index.js';

/**
 * The files cohort reads its own secrets from: `cohort.config.json` may hold `model.apiKey`,
 * `server.apiKey`, `tools.tavilyApiKey` and MCP servers' tokens, `.mcp.json` their `env` and
 * `headers` (a GitHub token, as Claude Code's files do). Bare names: at any depth, as `.env`.
 */
const SECRET_CONFIG_FILES = ['cohort.config.json', '.mcp.json'];

/** What cohort keeps in an embedded store's folder besides PostgreSQL's own files. */
const COHORT_STORE_FILES = [
  LOCK_FILE_NAME,
  START_CACHE_FILE,
  START_CACHE_SEAL_FILE,
  TRACE_JOURNAL_FILE,
  SESSION_JOURNAL_FILE,
  UNFINISHED_FOLDER_FILE,
];
/** What PGlite (PostgreSQL's data directory layout) makes in the folder, present or not yet. */
const POSTGRES_FILES = [
  'PG_VERSION',
  'base',
  'global',
  'pg_wal',
  'pg_xact',
  'pg_multixact',
  'pg_logical',
  'pg_subtrans',
  'pg_commit_ts',
  'pg_twophase',
  'pg_stat',
  'pg_stat_tmp',
  'pg_snapshots',
  'pg_serial',
  'pg_notify',
  'pg_replslot',
  'pg_tblspc',
  'pg_dynshmem',
  'postgresql.conf',
  'postgresql.auto.conf',
  'pg_hba.conf',
  'pg_ident.conf',
];
const isStoreEntry = (name: string) =>
  POSTGRES_FILES.includes(name) || /^(pg_|postgresql\.|postmaster\.|cohort)/.test(name);

/**
 * What the coding assistant's tools may not read whatever the configuration says, as
 * `sandbox.denyRead` entries (bash's sandbox hides them, the file tools refuse them): the files
 * cohort reads secrets from, and the embedded store's own files, which hold every session, answer
 * and trace of every API key (`.cohort/base`, its write-ahead log, the trace and session
 * journals). The store's folder keeps the rest of what it holds (`.cohort/skills`,
 * `.cohort/agents`) readable. A model
 * (or a request to `POST /code`) read the model's API key out of `cohort.config.json` with `read`
 * or `cat`, and other keys' conversations out of the store with `grep -r`.
 *
 * @example
 * hiddenFromTools(config); // ['cohort.config.json', '.mcp.json', '/repo/.cohort/base', …]
 */
export function hiddenFromTools(config: Pick<CohortConfig, 'databaseUrl' | 'dataDir'>): string[] {
  const folder = storeFolder(config);
  if (folder === undefined) return SECRET_CONFIG_FILES;
  const root = resolve(folder);
  let present: string[] = [];
  try {
    present = readdirSync(root).filter(isStoreEntry);
  } catch {
    // not made yet: the names it will hold are hidden below
  }
  const names = [...new Set([...POSTGRES_FILES, ...COHORT_STORE_FILES, ...present])];
  return [...SECRET_CONFIG_FILES, ...names.map((name) => join(root, name))];
}
