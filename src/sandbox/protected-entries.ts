import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { PROTECTED_PROJECT_ENTRIES } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { findNames, packageGitEntries, searchAllNames, searchNames } from './deny-paths.js';

/** The protected entries of one sandboxed run: mounted read-only; `release` after the run. */
export interface GuardedEntries {
  /** Paths to mount read-only over themselves (existing entries and placeholders). */
  readOnly: string[];
  /**
   * Folders between the workspace and a protected entry of a subfolder (`pkg` for
   * `pkg/.mcp.json`), shallowest first, to mount writable over themselves before `readOnly`: a
   * mount point cannot be renamed or removed, so `mv pkg elsewhere && mkdir pkg` cannot leave the
   * name free to be made anew.
   */
  pinned: string[];
  /** Removes the placeholders this run was the last to use. */
  release(): void;
  /**
   * Moves aside the protected entries of subfolders the run created (`pkg/.git`, `a/.mcp.json`):
   * an absent name this deep cannot be mounted read-only beforehand, so a command could otherwise
   * plant one for the next cohort or git started in that subfolder. Each is renamed to
   * `<name>.blocked-by-cohort` (numbered when taken), which nothing trusts; returns what was moved,
   * relative to the workspace. Called once the run's processes are gone.
   */
  quarantine(): Promise<Quarantined[]>;
}

/** A protected entry a sandboxed run created in a subfolder, and the name it was moved to. */
export interface Quarantined {
  path: string;
  movedTo: string;
}

/** The suffix a protected entry created by a sandboxed command is renamed with. */
export const QUARANTINE_SUFFIX = '.blocked-by-cohort';

/**
 * What a file placeholder holds: no settings. A cohort killed in the middle of a command (Ctrl-C,
 * kill -9) leaves its placeholders behind; `{}` is read as an empty configuration and an empty
 * `.mcp.json`, and the folder placeholders (`.git`, `.claude`, `.cohort`, `skills`) are empty
 * folders, so one left behind changes nothing (an empty file was "not JSON" at the next start).
 */
const PLACEHOLDER = '{}\n';

/**
 * Placeholders this process created and the runs using each: two bash calls of one reply may run
 * at once, and the first to end must not take away the second's.
 */
const placeholders = new Map<string, { users: number; ino: number }>();

const lstatOrUndefined = (path: string): Stats | undefined => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

/**
 * The workspace's protected entries (`PROTECTED_PROJECT_ENTRIES`: `.git`, `cohort.config.json`,
 * `.mcp.json`, `.claude`, `.cohort`, `skills`) for a sandbox on `root`. An existing entry is
 * mounted read-only over itself. An absent one cannot be made read-only, and a mount needs a file
 * to land on, so a placeholder is created for the run's time and mounted read-only: a file holding
 * {@link PLACEHOLDER}, or for a folder (`.git`, `.claude`, `.cohort`, `skills`) an empty folder (so
 * `git init` and a planted `.git/config` or hook fail inside, where they would run on the host at
 * the user's next git command). Inside, the
 * name cannot be written, removed, renamed or replaced (it is a mount point), and nothing can be
 * created under it. It is removed when the last run of this process that uses
 * it ends. A symbolic link at the top is refused: a mount follows it, which would leave the name
 * itself free to be replaced.
 *
 * @example
 * const guarded = guardProtectedEntries('/repo');
 * try { spawn('bwrap', [...guarded.readOnly.flatMap((p) => ['--ro-bind', p, p]), …]); } finally { guarded.release(); }
 */
export function guardProtectedEntries(root: string): GuardedEntries {
  const startedAt = Date.now();
  const nestedBefore = nestedNames(root);
  const before = new Set(nestedBefore);
  const quarantine = () => quarantineCreated(root, before, startedAt);
  const readOnly: string[] = [];
  const pinned: string[] = [];
  const held: string[] = [];
  const release = () => {
    for (const path of held.splice(0)) {
      const placeholder = placeholders.get(path);
      if (!placeholder || --placeholder.users > 0) continue;
      placeholders.delete(path);
      const now = lstatOrUndefined(path);
      // Removed only while it is still the placeholder made here.
      if (now?.ino !== placeholder.ino) continue;
      if (now.isFile() && now.size === PLACEHOLDER.length) unlinkSync(path);
      else if (now.isDirectory() && readdirSync(path).length === 0) rmdirSync(path);
    }
  };
  try {
    for (const entry of PROTECTED_PROJECT_ENTRIES) {
      const path = join(root, entry.name);
      const shared = placeholders.get(path);
      if (shared) {
        shared.users += 1;
        held.push(path);
        readOnly.push(path);
        continue;
      }
      const found = lstatOrUndefined(path);
      if (found?.isSymbolicLink()) {
        throw new CohortError(
          'forbidden',
          `${path} is a symbolic link: the sandbox cannot keep it read-only (${entry.why}). Replace the link with the file or folder itself to run commands in this workspace.`,
          { file: path },
        );
      }
      if (found) {
        readOnly.push(path);
        // A `.git` file (a worktree, --separate-git-dir) names the repository git uses: when that
        // is inside the workspace, its hooks and config are as much the host's as `.git`'s.
        const gitDir = found.isFile() && entry.name === '.git' ? gitDirOf(root, path) : undefined;
        if (gitDir) {
          readOnly.push(gitDir);
          pinned.push(...foldersBetween(root, [gitDir]));
        }
        continue;
      }
      let fd: number | undefined;
      try {
        if (entry.placeholder === 'folder') mkdirSync(path);
        else fd = openSync(path, 'wx', 0o444);
      } catch (cause) {
        const code = (cause as NodeJS.ErrnoException).code;
        // A workspace cohort cannot create files in is one the sandbox (same user, no
        // capabilities) cannot create them in either: nothing to guard.
        if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') continue;
        if (code !== 'EEXIST') throw cause;
        readOnly.push(path); // made meanwhile (by the user, or another process's placeholder)
        continue;
      }
      let ino: number;
      try {
        if (fd !== undefined) writeSync(fd, PLACEHOLDER);
        ({ ino } = lstatSync(path));
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
      placeholders.set(path, { users: 1, ino });
      held.push(path);
      readOnly.push(path);
    }
    const nested = nestedEntries(root, nestedBefore);
    readOnly.push(...nested);
    pinned.push(...foldersBetween(root, nested));
  } catch (error) {
    release();
    throw error;
  }
  return { readOnly, pinned, release, quarantine };
}

/** The names of {@link PROTECTED_PROJECT_ENTRIES} protected at any depth. */
const anyDepthNames = () =>
  new Set(
    PROTECTED_PROJECT_ENTRIES.filter((entry) => entry.anyDepth).map((entry) =>
      entry.name.toLowerCase(),
    ),
  );

/**
 * The protected names below the top of `root`, as found (not resolved), by the deny list's
 * bounded search. Names compare in lower case: a case-insensitive file system reads `.Git` as
 * `.git`.
 */
function nestedNames(root: string): string[] {
  const names = anyDepthNames();
  return findNames(root, names, { ignoreCase: true }).filter((path) => dirname(path) !== root);
}

/**
 * How far a file's change time may trail the clock read before it: the kernel stamps files with a
 * coarse clock, a tick or so behind.
 */
const FILE_CLOCK_SLACK_MS = 100;

/**
 * Renames the nested protected entries not in `before` aside; see `GuardedEntries.quarantine`.
 * One unchanged since `startedAt` is not the run's: the bounded search before the run may have
 * stopped short of it (a run that removed files lets the search after it reach further). Creating
 * an entry, or moving or linking one into place, sets its change time, which no command can set
 * back.
 */
async function quarantineCreated(
  root: string,
  before: ReadonlySet<string>,
  startedAt: number,
): Promise<Quarantined[]> {
  const moved: Quarantined[] = [];
  for (const path of await sweptNames(root)) {
    if (before.has(path)) continue;
    const entry = lstatOrUndefined(path);
    if (!entry || entry.ctimeMs < startedAt - FILE_CLOCK_SLACK_MS) continue;
    let target = `${path}${QUARANTINE_SUFFIX}`;
    for (let n = 2; lstatOrUndefined(target); n++) target = `${path}${QUARANTINE_SUFFIX}-${n}`;
    try {
      renameSync(path, target); // a symbolic link is renamed itself, never followed
    } catch {
      continue; // gone meanwhile, or its folder is read-only: nothing was planted there
    }
    moved.push({ path: relative(root, path), movedTo: relative(root, target) });
  }
  return moved;
}

/**
 * The protected names below the top of `root` after a run, with no bound a run can outgrow: the
 * bounded search first (the usual case, as cheap as the search before the run); when it stopped
 * at its limit, every folder is read (names only), since a command that made 50,000 files first
 * would otherwise plant past it. Then `.git` in each package of the `node_modules` folders the
 * search passed over (`node_modules/x/.git`, `node_modules/@scope/x/.git`): git run there by the
 * user runs its hooks. Only `.git` there: a package may ship a `skills` or `.claude` folder.
 */
async function sweptNames(root: string): Promise<string[]> {
  const names = anyDepthNames();
  const bounded = searchNames(root, names, { ignoreCase: true });
  const search = bounded.complete
    ? bounded
    : await searchAllNames(root, names, { ignoreCase: true });
  const nested = search.matches.filter((path) => dirname(path) !== root);
  for (const folder of search.nodeModules) nested.push(...(await packageGitEntries(folder)));
  return nested;
}

/**
 * The repository a `.git` file points git at (`gitdir: <path>`), when it is a folder inside
 * `root` other than the file itself; undefined otherwise (outside the workspace it is read-only
 * anyway).
 */
function gitDirOf(root: string, file: string): string | undefined {
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(4096);
      text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const named = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
  if (!named) return undefined;
  try {
    const real = realpathSync(resolve(root, named));
    return real.startsWith(root + sep) && lstatSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The folders strictly between `root` and each of `paths`, shallowest first, each once. */
function foldersBetween(root: string, paths: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const path of paths)
    for (let folder = dirname(path); folder.startsWith(root + sep); folder = dirname(folder))
      folders.add(folder);
  return [...folders].sort((a, b) => a.split(sep).length - b.split(sep).length);
}

/**
 * The protected entries below the top of `root` (`pkg/.mcp.json`, `pkg/.git`), which a cohort or
 * git started in that subfolder trusts: the existing ones, found by the same bounded search as the
 * deny list's bare names. A symbolic link is kept read-only through its target when that is inside
 * the workspace (elsewhere is read-only anyway). Absent names this deep cannot be mounted
 * beforehand: one a run creates is moved aside after it (`GuardedEntries.quarantine`).
 */
function nestedEntries(root: string, paths: readonly string[]): string[] {
  const found: string[] = [];
  for (const path of paths) {
    const entry = lstatOrUndefined(path);
    if (!entry) continue;
    if (!entry.isSymbolicLink()) {
      found.push(path);
      continue;
    }
    try {
      const real = realpathSync(path);
      if (real.startsWith(root + sep)) found.push(real);
    } catch {
      // a dangling link: nothing to keep
    }
  }
  return found;
}
