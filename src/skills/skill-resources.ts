import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  type Stats,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  OPEN_WITHOUT_WAITING,
  readFolderEntries,
  specialFileType,
  type FolderEntry,
} from '../config/index.js';
import { CohortError } from '../errors/index.js';
import {
  createWorkspace,
  DEFAULT_MAX_OUTPUT_CHARS,
  kernelPathOfSync,
  refuseHardLinked,
  truncateText,
} from '../tools/index.js';
import type { Skill } from './skill-file.js';

/** The folders of a skill read only on demand (Agent Skills format). */
export const SKILL_RESOURCE_FOLDERS = ['references', 'scripts', 'assets'] as const;
/**
 * Most resources a skill lists to the model: their names go into the prompt, and a cloned
 * repository's skill may hold a dataset of thousands of files.
 */
export const MAX_LISTED_SKILL_RESOURCES = 200;

/**
 * The entries of a folder; none when it cannot be listed (no permission). A name that is not
 * UTF-8 is left out: no path the model could give names it.
 */
function entriesOf(dir: string): FolderEntry[] {
  try {
    return readFolderEntries(dir).filter(({ utf8 }) => utf8);
  } catch {
    // A folder a skill's author shipped is no reason to fail the run that activated the skill.
    return [];
  }
}

/** Regular files under `dir`, not through links, until there are more than enough. */
function walk(dir: string, out: string[]): void {
  const pending = [dir];
  while (pending.length > 0 && out.length <= MAX_LISTED_SKILL_RESOURCES) {
    const current = pending.pop() as string;
    for (const { name, kind } of entriesOf(current)) {
      const path = join(current, name);
      if (kind.isDirectory()) pending.push(path);
      else if (kind.isFile()) out.push(path);
    }
  }
}

/** Whether `path` is a folder itself, not a link to one (which may lead out of the skill). */
function isOwnFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The files under a skill's `references/`, `scripts/` and `assets/`, relative to the skill folder,
 * without reading them (progressive disclosure: the model asks for what it needs); at most
 * {@link MAX_LISTED_SKILL_RESOURCES} of them. Links are not followed (one could lead out of the
 * skill, where {@link readSkillResource} reads nothing), and a folder that cannot be listed is
 * left out: the listing never fails the run.
 *
 * @example
 * listSkillResources(skill); // ['references/checklist.md', 'scripts/lint.sh']
 */
export function listSkillResources(skill: Pick<Skill, 'dir'>): string[] {
  const out: string[] = [];
  for (const folder of SKILL_RESOURCE_FOLDERS) {
    const dir = join(skill.dir, folder);
    if (isOwnFolder(dir)) walk(dir, out);
  }
  return out
    .map((path) => relative(skill.dir, path).split(sep).join('/'))
    .sort()
    .slice(0, MAX_LISTED_SKILL_RESOURCES);
}

/**
 * Reads one resource of a skill, cut to `maxChars` as every tool's output is (the file is read
 * up to four bytes a character, not whole). The path must be inside `references/`, `scripts/` or
 * `assets/` of that skill; `..`, absolute paths elsewhere and symlinks out are refused
 * (`forbidden`). A file holding NUL bytes is named as binary, not shown. A 5 MB reference went
 * into the model's prompt whole, and a 300 MB asset was read into memory (2.4 GB at its peak).
 *
 * @example
 * readSkillResource(skill, 'references/checklist.md');
 */
export function readSkillResource(
  skill: Pick<Skill, 'dir' | 'name'>,
  path: string,
  maxChars: number = DEFAULT_MAX_OUTPUT_CHARS,
): string {
  const folder = createWorkspace(skill.dir);
  const real = folder.resolve(path);
  const top = folder.relative(real).split('/')[0] ?? '';
  if (!(SKILL_RESOURCE_FOLDERS as readonly string[]).includes(top)) {
    throw new CohortError(
      'forbidden',
      `Skill "${skill.name}" resources live under ${SKILL_RESOURCE_FOLDERS.join('/, ')}/; "${path}" is not one of them.`,
      { field: 'path' },
    );
  }
  // Opened without waiting and checked on the descriptor: a FIFO was called "a folder", and one
  // swapped in after a check would block the open for ever.
  const handle = openResource(real, path);
  let size: number;
  let bytes: Buffer;
  let read = 0;
  try {
    const info = fstatSync(handle);
    refuseOpenedElsewhere(handle, info, folder.root, skill.name, path);
    if (!info.isFile()) {
      const kind = info.isDirectory() ? 'a folder' : (specialFileType(info) ?? 'not a file');
      throw new CohortError(
        'invalid_input',
        `"${path}" is ${kind}, not a file; list the skill's resources to pick a file.`,
        { field: 'path' },
      );
    }
    size = info.size;
    bytes = Buffer.alloc(Math.min(size, maxChars * 4));
    read = readSync(handle, bytes, 0, bytes.length, 0);
  } finally {
    closeSync(handle);
  }
  const head = bytes.subarray(0, read);
  if (head.includes(0))
    return `[${path} is a binary file of ${size} bytes; it is not shown as text.]`;
  const { text } = truncateText(head.toString('utf8'), maxChars);
  return read < size
    ? `${text}\n… [the file has ${size} bytes; the first ${read} were read]`
    : text;
}

/**
 * Refuses a resource whose open descriptor is not the file the path was checked as: the kernel's
 * path for it is outside the skill's resource folders (a folder on the way swapped for a symlink
 * after the path was resolved), or it is a file with more than one name (a hard link: its other
 * name may be outside the skill, `references/notes.md` linked to `~/.ssh/id_ed25519` was read
 * whole). As the workspace's file tools check what they open.
 */
function refuseOpenedElsewhere(
  handle: number,
  info: Stats,
  root: string,
  skill: string,
  path: string,
): void {
  refuseHardLinked(info, path, `skill "${skill}" resources are read only from files`, 'the skill');
  const opened = kernelPathOfSync(handle);
  if (opened === undefined) return; // no /proc (macOS): the path was resolved inside just before
  const top = relative(root, opened).split(sep)[0] ?? '';
  if (!(SKILL_RESOURCE_FOLDERS as readonly string[]).includes(top))
    throw new CohortError(
      'forbidden',
      `"${path}" changed while it was opened and led out of skill "${skill}"'s resource folders; nothing was read.`,
      { field: 'path' },
    );
}

/** Opens a resource without waiting; a socket (which cannot be opened) is named, not `ENXIO`. */
function openResource(real: string, path: string): number {
  try {
    // Not through a final symlink: `real` is resolved, so one there now was put there since.
    return openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | OPEN_WITHOUT_WAITING);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new CohortError(
        'forbidden',
        `"${path}" became a symlink while it was opened; nothing was read.`,
        { field: 'path', cause: error },
      );
    if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    throw new CohortError(
      'invalid_input',
      `"${path}" is a socket, not a file; list the skill's resources to pick a file.`,
      { field: 'path', cause: error },
    );
  }
}
