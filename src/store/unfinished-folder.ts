import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isDurableTemporary, removeFilesDurably, writeFileDurably } from './durable-file.js';

/**
 * A new store's folder is written file by file (the fresh-folder snapshot unpacked, or `initdb`),
 * and PostgreSQL's `PG_VERSION` comes first: a process killed meanwhile (`cohort serve`'s first
 * start, stopped with kill -9) left a folder that looked like a store and that PGlite could not
 * start ("PGlite failed to initialize properly"), on every later start. So this marker is written
 * (and flushed) before the first of the engine's files and removed only once the engine has
 * opened the whole folder: a folder that still holds it holds no data, only the start of a new
 * store, and the next start makes it again. A folder without it (a store, or a folder made by an
 * older cohort) is never emptied.
 */
export const UNFINISHED_FOLDER_FILE = 'cohort-unfinished-folder';

const EXPLANATION =
  'cohort is making a new store in this folder. If this file is still here, that was interrupted: the next start makes the store again.\n';

/**
 * True when `dir` holds the marker of a new store whose making was interrupted.
 *
 * @example
 * isUnfinishedFolder('.cohort'); // true after a first start killed while writing the folder
 */
export function isUnfinishedFolder(dir: string): boolean {
  return existsSync(join(dir, UNFINISHED_FOLDER_FILE));
}

/**
 * True when `entry` is the marker being written: its temporary file, left alone by a process
 * killed before renaming it, in a folder that holds nothing of a store yet.
 */
export function isUnfinishedMarkerTemporary(entry: string): boolean {
  return isDurableTemporary(entry, UNFINISHED_FOLDER_FILE);
}

/**
 * Starts making a new store in `dir`, which the caller has locked: writes the marker, or, when a
 * making was interrupted there, removes what it left (every entry but the marker and the files
 * `keep` names, the lock). Call it before the engine writes anything; call
 * {@link finishUnfinishedFolder} once the engine has opened the folder.
 *
 * @example
 * startUnfinishedFolder('.cohort', ['cohort.lock']);
 */
export function startUnfinishedFolder(dir: string, keep: readonly string[]): void {
  if (!isUnfinishedFolder(dir)) {
    for (const entry of readdirSync(dir))
      if (isUnfinishedMarkerTemporary(entry)) rmSync(join(dir, entry), { force: true });
    writeFileDurably(dir, UNFINISHED_FOLDER_FILE, EXPLANATION);
    return;
  }
  clearUnfinishedFolder(dir, keep);
}

/**
 * Removes everything of a new store's folder but the marker and the files `keep` names, so the
 * store can be made from the start again (after an interrupted making, or a snapshot PGlite could
 * not start from). The marker stays: a kill meanwhile leaves a folder the next start clears again.
 */
export function clearUnfinishedFolder(dir: string, keep: readonly string[]): void {
  for (const entry of readdirSync(dir)) {
    if (entry !== UNFINISHED_FOLDER_FILE && !keep.includes(entry))
      rmSync(join(dir, entry), { recursive: true, force: true });
  }
}

/**
 * Removes the marker once the engine has opened the new folder: from here on the folder is a
 * store, which no start empties.
 *
 * @example
 * finishUnfinishedFolder('.cohort');
 */
export function finishUnfinishedFolder(dir: string): void {
  removeFilesDurably(dir, [UNFINISHED_FOLDER_FILE]);
}
