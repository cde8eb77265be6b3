import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/**
 * Small files cohort keeps beside an engine's in a data folder (start cache, its seal, the trace
 * and session journals), written and removed so that what a call did is on disk when it returns:
 * a crash leaves the old file or the new one, never a part of one.
 */

/**
 * Writes all of `data` at the descriptor's position, or throws: `writeSync` writes what fits on a
 * full disk and returns a short count without an error, so a caller that wrote once took a torn
 * file for a whole one (the next write then throws ENOSPC).
 *
 * @example
 * writeFullySync(fd, JSON.stringify(trace) + '\n');
 */
export function writeFullySync(fd: number, data: string | Uint8Array, length?: number): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const end = length ?? bytes.length;
  for (let written = 0; written < end;) {
    const count = writeSync(fd, bytes, written, end - written);
    if (count === 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    written += count;
  }
}

/** Flushes a folder's entries (a rename, a deletion) to disk. */
export function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * True when `entry` is a temporary file {@link writeFileDurably} makes for `name` (`<name>.<pid>.tmp`):
 * a process killed between writing it and renaming it leaves it behind.
 *
 * @example
 * isDurableTemporary('cohort-unfinished-folder.4242.tmp', 'cohort-unfinished-folder'); // true
 */
export function isDurableTemporary(entry: string, name: string): boolean {
  return entry.startsWith(`${name}.`) && /^\d+\.tmp$/.test(entry.slice(name.length + 1));
}

/**
 * Replaces `dir/name` with `text` (or bytes) whole: a temporary file flushed to disk, renamed
 * over it, and the rename flushed too.
 *
 * @example
 * writeFileDurably('.cohort', 'cohort-start-cache.seal', JSON.stringify(seal));
 */
export function writeFileDurably(dir: string, name: string, text: string | Uint8Array): void {
  const path = join(dir, name);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { flush: true });
    renameSync(temporary, path);
    syncFolder(dir);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Removes the files `names` of `dir` that exist, in order, and flushes the removals to disk.
 * Returns true when one was there.
 *
 * @example
 * removeFilesDurably('.cohort', ['cohort-start-cache.seal', 'cohort-start-cache.bin']);
 */
export function removeFilesDurably(dir: string, names: readonly string[]): boolean {
  let removed = false;
  for (const name of names) {
    try {
      rmSync(join(dir, name));
      removed = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  if (removed) syncFolder(dir);
  return removed;
}

const NEWLINE = 0x0a;

/**
 * Appends `lines` (each ending in a newline) to the journal `dir/name` and flushes them to disk:
 * when this returns they survive a crash. Call it with the folder lock held. A last line left
 * unfinished by a process that was killed while appending (never acknowledged) is cut off first,
 * so it cannot swallow the lines that follow it.
 *
 * @example
 * appendLinesDurably('.cohort', 'cohort-trace-journal.jsonl', [JSON.stringify(trace) + '\n']);
 */
export function appendLinesDurably(dir: string, name: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const fd = openSync(join(dir, name), 'a+');
  try {
    const size = fstatSync(fd).size;
    if (size > 0) {
      const end = completeLength(fd, size);
      if (end < size) ftruncateSync(fd, end);
    }
    writeFullySync(fd, lines.join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // A new file's name must be on disk too.
  syncFolder(dir);
}

/** The length of the file up to and including its last newline. */
function completeLength(fd: number, size: number): number {
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - chunk.length);
    const read = readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, read).lastIndexOf(NEWLINE);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}

/**
 * The complete lines of the journal `dir/name`, oldest first, without their newlines: the part
 * after the last newline is a line still being written, or never finished, and is left out. None
 * when there is no file.
 *
 * @example
 * for (const line of completeLines('.cohort', 'cohort-trace-journal.jsonl')) JSON.parse(line);
 */
export function completeLines(dir: string, name: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(dir, name), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').slice(0, -1);
}
