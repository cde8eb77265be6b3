import { existsSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Below this much free space on the disk of a data folder, a store that fails to open is taken to
 * have failed for want of room: PostgreSQL writes at its start (a write-ahead log segment is
 * 16 MB), and on a full disk PGlite only says it "failed to initialize properly".
 */
export const LOW_DISK_BYTES = 64 * 1024 * 1024;

/**
 * The bytes free to this process on the disk holding `path` (or its nearest existing parent), or
 * undefined where the system does not say.
 *
 * @example
 * freeBytes('.cohort'); // 52428800
 */
export function freeBytes(path: string): number | undefined {
  let existing = resolve(path);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    const stats = statfsSync(existing);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

/** PGlite's file system errors (`{ name: 'ErrnoError', errno }`, Emscripten's numbers) in words. */
const ERRNO_WORDS: Record<number, string> = {
  2: 'permission denied',
  19: 'disk quota exceeded',
  22: 'file too large',
  29: 'input/output error',
  44: 'no such file or directory',
  51: 'no space left on device',
  63: 'operation not permitted',
  69: 'read-only file system',
};
/** The errnos that mean the disk is full. */
const NO_SPACE_ERRNOS = new Set([19, 51]);

/**
 * The errno of a PGlite file system error, from the error (`{ name: 'ErrnoError', errno }`) or
 * from its description (one that crossed from the engine's thread is its JSON text), or undefined.
 */
export function pgliteErrno(cause: unknown, described = ''): number | undefined {
  const errno = (cause as { name?: unknown; errno?: unknown } | null)?.errno;
  if ((cause as { name?: unknown } | null)?.name === 'ErrnoError' && typeof errno === 'number')
    return errno;
  const text = /"name":"ErrnoError","errno":(\d+)/.exec(described)?.[1];
  return text === undefined ? undefined : Number(text);
}

/** What a PGlite file system error's errno means, as ` (no space left on device)`, or ''. */
export function errnoWords(cause: unknown, described: string): string {
  const errno = pgliteErrno(cause, described);
  const words = errno === undefined ? undefined : ERRNO_WORDS[errno];
  return words ? ` (${words})` : '';
}

/**
 * What to do when a store did not open on a disk that is (nearly) full, or undefined when the
 * disk has room: free space, and keep the folder, whose files are most likely intact.
 */
export function lowSpaceAdvice(
  dataDir: string,
  cause: unknown,
  described: string,
  free: number | undefined,
): string | undefined {
  const errno = pgliteErrno(cause, described);
  const full = errno !== undefined && NO_SPACE_ERRNOS.has(errno);
  if (!full && (free === undefined || free >= LOW_DISK_BYTES)) return undefined;
  const left =
    free === undefined
      ? 'the disk holding it is full'
      : `the disk holding ${dataDir} has only ${(free / 1024 / 1024).toFixed(1)} MB free`;
  return ` PostgreSQL needs room to start, and ${left}: free some space and try again. Its files are most likely intact: do not remove the folder.`;
}
