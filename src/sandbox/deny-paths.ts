import { existsSync, readdirSync, realpathSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';

/**
 * Folders the any-depth search does not enter: dependency and VCS trees are large, and walking
 * them on every command would cost more than the command.
 */
export const DENY_SEARCH_SKIPS: ReadonlySet<string> = new Set(['node_modules', '.git']);
/** At most this many directory entries are read when searching a bare name at any depth. */
export const DENY_SEARCH_MAX_ENTRIES = 50_000;

/**
 * The real absolute paths of the `denyRead` entries that exist: `~/…` is under `home`, a relative
 * entry is under the workspace, symlinks are resolved (a mask must cover the real file). A bare
 * name with no `/` (`.env`) matches at any depth of the workspace, as the file tools' `Read(.env)`
 * rule does, so `config/.env` is hidden from bash too (outside `node_modules` and `.git`).
 * Entries that do not exist are dropped: there is nothing to hide, and bubblewrap cannot mount
 * over them.
 *
 * @example
 * resolveDenyPaths(['~/.ssh', '.env'], { workspace: '/repo', home: '/home/me' });
 * // ['/home/me/.ssh', '/repo/.env', '/repo/api/.env'] (those that exist)
 */
export function resolveDenyPaths(
  entries: readonly string[],
  options: { workspace: string; home?: string },
): string[] {
  const home = options.home ?? homedir();
  const found = new Set<string>();
  const add = (absolute: string) => {
    if (!existsSync(absolute)) return;
    try {
      found.add(realpathSync(absolute));
    } catch {
      // vanished between the two calls: nothing to hide
    }
  };
  const bareNames = new Set<string>();
  for (const entry of entries) {
    const expanded =
      entry === '~' ? home : entry.startsWith('~/') ? join(home, entry.slice(2)) : entry;
    if (!isAbsolute(expanded) && !expanded.includes('/') && expanded !== '.' && expanded !== '..')
      bareNames.add(expanded);
    add(isAbsolute(expanded) ? expanded : resolve(options.workspace, expanded));
  }
  if (bareNames.size > 0) for (const path of findNames(options.workspace, bareNames)) add(path);
  return [...found].sort();
}

/**
 * Paths under `root` whose last part is one of `names` (a match is not entered); symlinked
 * folders are not followed, {@link DENY_SEARCH_SKIPS} are not entered, and at most
 * {@link DENY_SEARCH_MAX_ENTRIES} entries are read. With `ignoreCase`, `names` are given in
 * lower case and match in any case.
 *
 * @example
 * findNames('/repo', new Set(['.env'])); // ['/repo/api/.env']
 */
export function findNames(
  root: string,
  names: ReadonlySet<string>,
  options: { ignoreCase?: boolean } = {},
): string[] {
  const matches: string[] = [];
  const pending = [root];
  let read = 0;
  while (pending.length > 0 && read < DENY_SEARCH_MAX_ENTRIES) {
    const dir = pending.pop() as string;
    let children: Dirent[];
    try {
      children = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable or gone: nothing to hide there
    }
    read += children.length;
    for (const child of children) {
      const path = join(dir, child.name);
      if (names.has(options.ignoreCase ? child.name.toLowerCase() : child.name)) matches.push(path);
      else if (child.isDirectory() && !DENY_SEARCH_SKIPS.has(child.name)) pending.push(path);
    }
  }
  return matches;
}

/** True when `path` is `denied` or inside it. */
export function isInsideAny(path: string, denied: readonly string[]): boolean {
  return denied.some((entry) => path === entry || path.startsWith(entry + sep));
}
