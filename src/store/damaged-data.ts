import { CohortError } from '../errors/index.js';

/**
 * PostgreSQL's SQLSTATEs for data it read back damaged: `data_corrupted` (XX001, "invalid page in
 * block 0 of relation base/5/16434") and `index_corrupted` (XX002).
 */
const DAMAGED_DATA = new Set(['XX001', 'XX002']);

/**
 * The store's error for a query that failed on damaged data, saying so and what to do, or
 * undefined for any other error. Every retry fails alike, so it is no crash of the caller: the
 * server answers it 503 `store_unavailable` and the CLI prints it, where both said "unexpected".
 *
 * @example
 * damagedDataError(Object.assign(new Error('invalid page in block 0 …'), { code: 'XX001' }))?.message;
 * // "The store's files are damaged (invalid page in block 0 …): restore …"
 */
export function damagedDataError(error: unknown): CohortError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !DAMAGED_DATA.has(code)) return undefined;
  const reason = error instanceof Error ? error.message : code;
  return new CohortError(
    'retrieval_unavailable',
    `The store's files are damaged (${reason}): restore the data folder (or the database) from a backup, or remove the folder and ingest again if it holds nothing you need.`,
    { cause: error },
  );
}
