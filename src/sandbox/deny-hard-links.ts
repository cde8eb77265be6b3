import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { walkFolders } from './walk-folders.js';

/** At most this many entries of the denied folders are looked at for files with other names. */
export const DENIED_FILES_MAX_ENTRIES = 10_000;

const identity = (info: Stats) => `${info.dev}:${info.ino}`;

/**
 * The identities (device and inode) of the denied regular files that have more than one name,
 * a denied folder's files included (at most {@link DENIED_FILES_MAX_ENTRIES} entries of them).
 * Synchronous: it runs before every command, and one awaited `lstat` per file of a data folder
 * (hundreds) took 130 ms on a loaded machine where this takes a few.
 */
function linkedDenied(denied: readonly string[]): Set<string> {
  const found = new Set<string>();
  let looked = 0;
  const pending = [...denied];
  while (pending.length > 0 && looked < DENIED_FILES_MAX_ENTRIES) {
    const path = pending.pop() as string;
    looked += 1;
    let info: Stats;
    try {
      info = lstatSync(path);
    } catch {
      continue;
    }
    if (info.isFile() && info.nlink > 1) found.add(identity(info));
    if (!info.isDirectory()) continue;
    try {
      for (const child of readdirSync(path)) pending.push(join(path, child));
    } catch {
      // unreadable: bash cannot read it either
    }
  }
  return found;
}

/**
 * Other names, under `root`, of the denied files (`denied`: real paths of files and folders):
 * hard links. A mask over `.env` or `~/.ssh/id_rsa` hides that name only; a hard link
 * `notes.txt` to the same file (made before the command, by anyone: a command in the sandbox
 * cannot make one, the mask being another mount) read the secret through `cat notes.txt`. Only
 * files with more than one link are looked for, so a tree holding none costs one `lstat` per
 * denied entry; otherwise every entry of `root` is looked at ({@link walkFolders}, `node_modules`
 * and `.git` included, symlinked folders not followed). Names outside `root`
 * (the rest of the file system is visible read-only) are not searched: a hard link there is what
 * a copy of the file would be.
 *
 * @example
 * await hardLinksOf(['/repo/.env'], '/repo'); // ['/repo/notes.txt'] when notes.txt is a link of .env
 */
export async function hardLinksOf(denied: readonly string[], root: string): Promise<string[]> {
  const wanted = linkedDenied(denied);
  if (wanted.size === 0) return [];
  const found: string[] = [];
  await walkFolders(root, async (path, entry) => {
    if (!entry.isFile()) return true;
    try {
      if (wanted.has(identity(await lstat(path)))) found.push(path);
    } catch {
      // gone meanwhile: nothing to hide
    }
    return false;
  });
  return found;
}
