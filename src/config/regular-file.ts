import { constants, type Dirent, type Stats } from 'node:fs';

/**
 * The open flag that never waits: without it, opening a FIFO blocks until another process opens
 * its other end (for ever, holding one of libuv's four threads), where cohort only means to find
 * out it is not a regular file. A regular file reads and writes the same either way. Add it to
 * every open of a path a model, a folder listing or a user's tree names, then check the kind on
 * the open descriptor ({@link specialFileType}): a path checked before the open may be swapped
 * for a FIFO in between.
 *
 * @example
 * const handle = await open(path, constants.O_RDONLY | OPEN_WITHOUT_WAITING);
 * if (specialFileType(await handle.stat())) … // refuse it
 */
export const OPEN_WITHOUT_WAITING = constants.O_NONBLOCK ?? 0;

/**
 * What a file that is neither a regular file, a folder nor a symbolic link is, in words; undefined
 * for a regular file, a folder or a link.
 *
 * @example
 * specialFileType(await handle.stat()); // 'a FIFO (named pipe)'
 */
export function specialFileType(entry: Dirent | Stats): string | undefined {
  if (entry.isFIFO()) return 'a FIFO (named pipe)';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'a device';
  return undefined;
}
