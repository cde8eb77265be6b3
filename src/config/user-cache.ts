import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder cohort keeps per-user caches in (the fresh PGlite folder's snapshot, parsed agent
 * frontmatter): `$XDG_CACHE_HOME/cohort`, else `~/.cache/cohort`. What is in it is rebuilt when
 * missing; it holds nothing a user wrote.
 *
 * @example
 * userCacheDir({ XDG_CACHE_HOME: '/var/cache' }); // '/var/cache/cohort'
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cohort');
}
