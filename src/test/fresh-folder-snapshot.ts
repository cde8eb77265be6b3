import { dirname } from 'node:path';
import { openPgliteDb } from '../store/pglite-db.js';
import { defaultSnapshotDir, findSnapshot } from '../store/pglite-snapshot.js';

// A new PGlite data folder made by `initdb` costs seconds of CPU (more on a loaded 2-core
// machine); one unpacked from the saved fresh-folder snapshot (see pglite-snapshot.ts) costs a
// fraction of that. Tests whose subject is not `initdb` start their new folders from it, as a
// user's every start after the first does.

/**
 * The environment that points a child process at this process's fresh-folder snapshot cache.
 * Tests start cohort processes with only PATH and a throwaway HOME (so no user setting leaks in),
 * and `~/.cache/cohort` under that HOME holds no snapshot: each new store there ran `initdb`.
 *
 * @example
 * spawn(process.execPath, [cli, 'serve'], { env: { PATH, HOME: cwd, ...snapshotCacheEnv() } });
 */
export function snapshotCacheEnv(): { XDG_CACHE_HOME: string } {
  return { XDG_CACHE_HOME: dirname(defaultSnapshotDir()) };
}

/**
 * The saved fresh-folder snapshot of the default cache, saved first by opening a store in memory
 * when there is none; undefined only when the cache cannot be written (a new folder then runs
 * `initdb`, slower but the same store).
 *
 * @example
 * const snapshot = await freshFolderSnapshot();
 * const db = await openPgliteWorkerDb(dir, { snapshot });
 */
export async function freshFolderSnapshot(): Promise<string | undefined> {
  const cache = defaultSnapshotDir();
  const saved = findSnapshot(cache);
  if (saved) return saved;
  await (await openPgliteDb('memory://', { snapshotDir: cache })).close();
  return findSnapshot(cache);
}
