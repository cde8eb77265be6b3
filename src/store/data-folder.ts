import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CohortError } from '../errors/index.js';
import { isUnfinishedFolder, isUnfinishedMarkerTemporary } from './unfinished-folder.js';

/**
 * Creates an embedded store's data folder and the folders above it that are missing, one level at
 * a time, or throws an `invalid_input` error naming the folder and why it cannot be made. Not
 * `mkdirSync(dir, { recursive: true })`: Node's recursive mkdir never returns for a path under
 * `/proc` (the kernel answers ENOENT for ever), and its raw errors (`EPERM: mkdir …`) reached the
 * user as "unexpected error".
 *
 * @example
 * createDataFolder('.cohort');
 */
export function createDataFolder(dir: string): void {
  const missing: string[] = [];
  for (let path = resolve(dir); !exists(path); path = dirname(path)) {
    missing.unshift(path);
    if (dirname(path) === path) break;
  }
  for (const path of missing) {
    try {
      mkdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // made meanwhile
      throw dataFolderError(dir, 'create', error);
    }
  }
}

/**
 * The error for a data folder cohort cannot create or write in (`EACCES`, `EROFS`, a path under
 * `/proc`), naming the folder, the system's reason and what to do.
 */
export function dataFolderError(dir: string, action: 'create' | 'write in', cause: unknown) {
  const reason = (cause as NodeJS.ErrnoException).code ?? String(cause);
  const advice = DISK_FULL.has(reason)
    ? 'The disk holding it is full: free some space and try again.'
    : 'Pass --data-dir (or COHORT_DATA_DIR) a folder this user can write; it is created if it does not exist.';
  return new CohortError(
    'invalid_input',
    `Cannot ${action} the data folder "${dir}" (${reason}). ${advice}`,
    {
      field: 'data-dir',
      file: dir,
      cause,
    },
  );
}

/** The system's codes for a write refused for want of room. */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when `dir` is a new data folder: missing, empty, holding nothing but a folder lock
 * (`lockFile`, taken by the process about to create the store in it), or holding what a start
 * killed while making a new store there left (its marker, see `unfinished-folder.ts`), which is
 * made again. Anything else is a store, or the user's, and is never replaced.
 *
 * @example
 * isNewDataFolder('.cohort', 'cohort.lock'); // true before the first start
 */
export function isNewDataFolder(dir: string, lockFile: string): boolean {
  if (!exists(dir)) return true;
  // A start killed while writing the marker leaves its temporary file beside the lock.
  return (
    readdirSync(dir).every((name) => name === lockFile || isUnfinishedMarkerTemporary(name)) ||
    isUnfinishedFolder(dir)
  );
}

/** The file every PostgreSQL data folder has, PGlite's too: its presence marks a store. */
const PG_VERSION_FILE = 'PG_VERSION';

/** How many of a refused folder's entries its error names. */
const NAMED_ENTRIES = 5;

/**
 * Refuses a data folder that is neither new (see {@link isNewDataFolder}) nor a store: one that
 * holds the user's files and no `PG_VERSION`. PGlite would make a store in it, writing its two
 * dozen files and folders among the user's (`--data-dir ~` or `--data-dir /`). Checked before the
 * folder is locked, so a refused folder is left exactly as it was.
 *
 * @example
 * checkDataFolder('.cohort', 'cohort.lock'); // throws for a folder of notes
 */
export function checkDataFolder(dir: string, lockFile: string): void {
  if (isNewDataFolder(dir, lockFile) || exists(join(dir, PG_VERSION_FILE))) return;
  const entries = readdirSync(dir)
    .filter((name) => name !== lockFile)
    .sort();
  const named = entries.slice(0, NAMED_ENTRIES).join(', ');
  const more = entries.length > NAMED_ENTRIES ? `, … ${entries.length} in all` : '';
  throw new CohortError(
    'invalid_input',
    `The data folder "${dir}" holds other files (${named}${more}) and no cohort store. Pass --data-dir (or COHORT_DATA_DIR) a new or empty folder, or the folder of an existing store.`,
    { field: 'data-dir', file: dir },
  );
}
