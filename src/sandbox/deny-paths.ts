import { existsSync, lstatSync, readdirSync, realpathSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { nextTurn } from '../event-loop/index.js';
import { hardLinksOf } from './deny-hard-links.js';
import { walkFolders } from './walk-folders.js';

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
 * over them. The bounded search ({@link DENY_SEARCH_MAX_ENTRIES}) answers for most trees; when
 * it stops there, every folder is read (names only, asynchronously), as the sweep of protected
 * entries does: a tree larger than the bound (a large repository, or a command that made 50,000
 * files first) left a `.env` past it readable by bash. Hard links in the workspace to a denied
 * file are denied too ({@link hardLinksOf}).
 *
 * @example
 * await resolveDenyPaths(['~/.ssh', '.env'], { workspace: '/repo', home: '/home/me' });
 * // ['/home/me/.ssh', '/repo/.env', '/repo/api/.env'] (those that exist)
 */
export async function resolveDenyPaths(
  entries: readonly string[],
  options: { workspace: string; home?: string },
): Promise<string[]> {
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
  if (bareNames.size > 0) {
    const bounded = searchNames(options.workspace, bareNames);
    const search = bounded.complete ? bounded : await searchAllNames(options.workspace, bareNames);
    for (const path of search.matches) add(path);
  }
  // Other names of a denied file (hard links) in the workspace read it as well as its own name.
  for (const path of await hardLinksOf([...found], options.workspace)) add(path);
  // A workspace reached through a symlink ("/home/me/proj" → "/data/proj") is mounted where it was
  // named: a mask on the real file leaves it readable there, so it is masked there too.
  const named = resolve(options.workspace);
  let real = named;
  try {
    real = realpathSync(named);
  } catch {
    // no workspace: nothing of it to mask
  }
  if (real !== named)
    for (const path of [...found]) {
      const inside = relative(real, path);
      if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside))
        found.add(join(named, inside));
    }
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
  return searchNames(root, names, options).matches;
}

/** What {@link searchNames} found, and whether it read the whole tree. */
export interface NameSearch {
  matches: string[];
  /** The `node_modules` folders it passed over (not entered). */
  nodeModules: string[];
  /** False when it stopped at {@link DENY_SEARCH_MAX_ENTRIES} entries with folders left unread. */
  complete: boolean;
}

/** {@link findNames}, saying whether the search was cut short and which `node_modules` it skipped. */
export function searchNames(
  root: string,
  names: ReadonlySet<string>,
  options: { ignoreCase?: boolean } = {},
): NameSearch {
  const found: NameSearch = { matches: [], nodeModules: [], complete: true };
  const pending = [root];
  let read = 0;
  while (pending.length > 0) {
    if (read >= DENY_SEARCH_MAX_ENTRIES) return { ...found, complete: false };
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
      if (sortChild(path, child, names, options.ignoreCase, found)) pending.push(path);
    }
  }
  return found;
}

/**
 * {@link searchNames} with no bound on the entries read: every folder of the tree is read (names
 * and types only, no file is looked at) by {@link walkFolders}, so a tree of millions of entries
 * a command made holds up that command's end, not the process.
 */
export async function searchAllNames(
  root: string,
  names: ReadonlySet<string>,
  options: { ignoreCase?: boolean } = {},
): Promise<NameSearch> {
  const found: NameSearch = { matches: [], nodeModules: [], complete: true };
  await walkFolders(root, (path, entry) =>
    sortChild(path, entry, names, options.ignoreCase, found),
  );
  return found;
}

/**
 * Files one entry of a searched folder as a match or a skipped `node_modules`; true when it is a
 * folder still to read.
 */
function sortChild(
  path: string,
  entry: Dirent,
  names: ReadonlySet<string>,
  ignoreCase: boolean | undefined,
  found: NameSearch,
): boolean {
  if (names.has(ignoreCase ? entry.name.toLowerCase() : entry.name)) found.matches.push(path);
  else if (!entry.isDirectory()) return false;
  else if (!DENY_SEARCH_SKIPS.has(entry.name)) return true;
  else if (entry.name === 'node_modules') found.nodeModules.push(path);
  return false;
}

/** Packages whose `.git` is looked for between two turns of the event loop. */
const PACKAGES_PER_TURN = 1000;

/**
 * The `.git` entries of the packages in `nodeModules` (scoped ones too), as found. One look per
 * package (a few milliseconds for hundreds), giving the event loop a turn every
 * {@link PACKAGES_PER_TURN}. A `.git` there is git's when someone runs git in that package.
 *
 * @example
 * await packageGitEntries('/repo/node_modules'); // ['/repo/node_modules/x/.git']
 */
export async function packageGitEntries(nodeModules: string): Promise<string[]> {
  const folders = async (dir: string) => {
    try {
      return (await readdir(dir, { withFileTypes: true })).filter((child) => child.isDirectory());
    } catch {
      return [];
    }
  };
  const found: string[] = [];
  let looked = 0;
  const look = async (pkg: string) => {
    if (++looked % PACKAGES_PER_TURN === 0) await nextTurn();
    const path = join(pkg, '.git');
    try {
      lstatSync(path);
      found.push(path);
    } catch {
      // none there
    }
  };
  for (const child of await folders(nodeModules)) {
    const path = join(nodeModules, child.name);
    if (!child.name.startsWith('@')) await look(path);
    else for (const scoped of await folders(path)) await look(join(path, scoped.name));
  }
  return found;
}

/** True when `path` is `denied` or inside it. */
export function isInsideAny(path: string, denied: readonly string[]): boolean {
  return denied.some((entry) => path === entry || path.startsWith(entry + sep));
}
