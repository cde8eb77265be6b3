import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';

/**
 * The real absolute paths of the `denyRead` entries that exist: `~/…` is under `home`, a relative
 * entry is under the workspace, symlinks are resolved (a mask must cover the real file). Entries
 * that do not exist are dropped: there is nothing to hide, and bubblewrap cannot mount over them.
 *
 * @example
 * resolveDenyPaths(['~/.ssh', '.env'], { workspace: '/repo', home: '/home/me' });
 * // ['/home/me/.ssh', '/repo/.env'] (those that exist)
 */
export function resolveDenyPaths(
  entries: readonly string[],
  options: { workspace: string; home?: string },
): string[] {
  const home = options.home ?? homedir();
  const found = new Set<string>();
  for (const entry of entries) {
    const expanded =
      entry === '~' ? home : entry.startsWith('~/') ? join(home, entry.slice(2)) : entry;
    const absolute = isAbsolute(expanded) ? expanded : resolve(options.workspace, expanded);
    if (!existsSync(absolute)) continue;
    try {
      found.add(realpathSync(absolute));
    } catch {
      // vanished between the two calls: nothing to hide
    }
  }
  return [...found].sort();
}

/** True when `path` is `denied` or inside it. */
export function isInsideAny(path: string, denied: readonly string[]): boolean {
  return denied.some((entry) => path === entry || path.startsWith(entry + sep));
}
