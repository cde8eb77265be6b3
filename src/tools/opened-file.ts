import { readlinkSync, type Stats } from 'node:fs';
import { readlink } from 'node:fs/promises';
import { CohortError } from '../errors/index.js';

const fdPath = (fd: number) => `/proc/self/fd/${fd}`;

/**
 * The path the kernel has for an open descriptor: where the file really is, whatever was swapped
 * on the way after the path was checked. Undefined without /proc (macOS).
 */
export async function kernelPathOf(fd: number): Promise<string | undefined> {
  return readlink(fdPath(fd)).catch(() => undefined);
}

/** {@link kernelPathOf}, for readers that run synchronously. */
export function kernelPathOfSync(fd: number): string | undefined {
  try {
    return readlinkSync(fdPath(fd));
  } catch {
    return undefined;
  }
}

/**
 * Refuses an opened regular file with more than one name: a hard link made to a file outside the
 * folder has an inside path, but its other name is outside (`notes.md` linked to
 * `~/.ssh/id_ed25519`). `reads` says who reads what ("the file tools only open files"), `outside`
 * the folder it would leave ("the workspace").
 *
 * @example
 * refuseHardLinked(info, 'notes.md', 'the file tools only open files', 'the workspace');
 */
export function refuseHardLinked(info: Stats, path: string, reads: string, outside: string): void {
  if (info.isFile() && info.nlink > 1)
    throw new CohortError(
      'forbidden',
      `"${path}" has ${info.nlink} hard links; ${reads} with one link, since another name of the same file may be outside ${outside}.`,
      { field: 'path' },
    );
}
