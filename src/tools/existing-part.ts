import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';

/** True when something (a dangling symlink included) sits at `path`. */
export const present = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * The longest part of absolute `path` that exists (a dangling symlink counts): where a path to a
 * file about to be written starts to be new. Its real path, with the rest appended, is where the
 * file would land, so both the workspace's confinement and the permission rules read it.
 *
 * @example
 * existingPart('/repo/docs/new/file.md'); // '/repo/docs' when docs exists and new does not
 */
export function existingPart(path: string): string {
  let existing = path;
  while (!present(existing) && dirname(existing) !== existing) existing = dirname(existing);
  return existing;
}
