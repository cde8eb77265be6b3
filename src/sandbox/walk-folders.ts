import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { nextTurn } from '../event-loop/index.js';

/** Entries visited between two turns of the event loop while a tree is walked. */
export const ENTRIES_PER_TURN = 2000;

/**
 * What a walk does with one entry of a folder it read: `path` is the entry's path, `entry` its
 * name and type as the folder listed it. True enters the entry when it is a folder.
 */
export type FolderVisit = (path: string, entry: Dirent) => boolean | Promise<boolean>;

/**
 * Reads every folder of the tree under `root` that `visit` lets it enter, asynchronously, and
 * calls `visit` on each entry read. A symlink is an entry, never a folder, so a symlinked folder
 * is not followed (what it points at may be outside the tree). A folder that cannot be read (no
 * permission, gone meanwhile) is passed over: what a command cannot read needs no hiding. The
 * event loop gets a turn every {@link ENTRIES_PER_TURN} entries, so a tree of millions of
 * entries holds up the run that walks it, not the process.
 *
 * @example
 * await walkFolders('/repo', (path, entry) => entry.name !== '.git'); // every folder but .git
 */
export async function walkFolders(root: string, visit: FolderVisit): Promise<void> {
  const pending = [root];
  let visited = 0;
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let children: Dirent[];
    try {
      children = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const child of children) {
      if (++visited % ENTRIES_PER_TURN === 0) await nextTurn();
      const path = join(dir, child.name);
      const enter = visit(path, child);
      if ((enter === true || (enter !== false && (await enter))) && child.isDirectory())
        pending.push(path);
    }
  }
}
