import { CohortError } from '../errors/index.js';
import { damagedDataError } from './damaged-data.js';

/**
 * PostgreSQL's SQLSTATE for a write refused for want of room (`disk_full`, 53100: "could not
 * extend file "base/5/16434": No space left on device").
 */
const DISK_FULL = '53100';

/**
 * The store's error for a query that failed on its full disk, saying so and what to do, or
 * undefined for any other error. Every retry fails alike until space is freed.
 *
 * @example
 * diskFullError(Object.assign(new Error('could not extend file …'), { code: '53100' }))?.message;
 * // "The store's disk is full (could not extend file …): free some space …"
 */
export function diskFullError(error: unknown): CohortError | undefined {
  if ((error as { code?: unknown } | null)?.code !== DISK_FULL) return undefined;
  const reason = error instanceof Error ? error.message : DISK_FULL;
  return new CohortError(
    'retrieval_unavailable',
    `The store's disk is full (${reason}): free some space on the disk holding the data folder (or the database's) and try again. Nothing of this request was saved.`,
    { cause: error },
  );
}

/**
 * The store's error for a query that failed on something an operator must fix and every retry
 * meets alike (data stored damaged, a full disk), or undefined: the server answers it 503
 * `store_unavailable` and the CLI prints it, where both said "unexpected".
 *
 * @example
 * storeFaultError(error) ?? error;
 */
export function storeFaultError(error: unknown): CohortError | undefined {
  return damagedDataError(error) ?? diskFullError(error);
}
