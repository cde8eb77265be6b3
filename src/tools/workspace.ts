import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { undecodedPathProblem } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { existingPart } from './existing-part.js';

/** A folder the file tools are confined to. */
export interface Workspace {
  /** The workspace folder, symlinks resolved. */
  readonly root: string;
  /**
   * The real absolute path of `path` (relative to the root, or absolute inside it). Refuses `..`
   * segments, paths outside the root and symlinks that lead out of it (`forbidden`); a missing
   * path is `not_found` unless `mustExist` is false (for files about to be written).
   */
  resolve(path: string, options?: { mustExist?: boolean }): string;
  /** `absolute` relative to the root, with `/` separators (what tools show the model). */
  relative(absolute: string): string;
  /**
   * Why the file at real path `real` may not be read (the rule that denies it), or undefined.
   * The file tools ask with the path the kernel has for the open file, so a symlink or a glob
   * pattern that leads to a denied file (`link` → `.env`, `**\/.env`) is refused like its name.
   */
  readDenied(real: string): string | undefined;
  /**
   * Why the file at real path `real`, named `path` by the call, may not be read though no rule
   * denies it, or undefined: a symlink (`link` → `secret/`) cannot take a read past the question an
   * ask rule on the file it reaches would put to the person.
   */
  readRefused(real: string, path: string): string | undefined;
  /**
   * Why the file at real path `real`, named `path` by the call, may not be written, or undefined:
   * the file tools ask with the path the kernel has for the folder they write in, so a symlink
   * (`link` → `secret/`) cannot take a write where the rules would not let the call go by name.
   */
  writeRefused(real: string, path: string): string | undefined;
}

/** Options of {@link createWorkspace}. */
export interface WorkspaceOptions {
  /** Why a real path may not be read (e.g. `sandbox.denyRead` as Read deny rules), or undefined. */
  readDenied?: (real: string) => string | undefined;
  /** Why a real path named `path` may not be read though no rule denies it, or undefined. */
  readRefused?: (real: string, path: string) => string | undefined;
  /** Why a real path named `path` may not be written (the permission rules), or undefined. */
  writeRefused?: (real: string, path: string) => string | undefined;
}

const inside = (root: string, path: string) => path === root || path.startsWith(root + sep);

/**
 * Opens `root` as a workspace. A missing root, or one that is not a folder, is `invalid_input`.
 *
 * @example
 * const workspace = createWorkspace('/home/me/project');
 * workspace.resolve('src/index.ts'); // '/home/me/project/src/index.ts'
 * workspace.resolve('../etc/passwd'); // throws CohortError('forbidden')
 */
export function createWorkspace(root: string, options: WorkspaceOptions = {}): Workspace {
  const given = resolve(root);
  if (!existsSync(given) || !statSync(given).isDirectory()) {
    throw new CohortError(
      'invalid_input',
      undecodedPathProblem(given)
        ? `Workspace ${given} names no folder: ${undecodedPathProblem(given)}.`
        : `Workspace ${given} does not exist or is not a folder: pass an existing folder with --workspace.`,
      { field: 'workspace' },
    );
  }
  const real = realpathSync(given);

  const refuse = (path: string, why: string) =>
    new CohortError(
      'forbidden',
      `Path "${path}" ${why}; use a path inside the workspace ${real}.`,
      {
        field: 'path',
      },
    );

  const resolvePath = (path: string, options: { mustExist?: boolean } = {}): string => {
    const mustExist = options.mustExist ?? true;
    if (path.includes('\0')) throw refuse(path.replace(/\0/g, '\\0'), 'contains a NUL byte');
    // `..` is refused outright rather than normalised: a model that walks upwards is a mistake.
    if (path.split(/[\\/]+/).includes('..')) throw refuse(path, 'uses ".."');
    let absolute = isAbsolute(path) ? resolve(path) : resolve(real, path);
    // The caller may name the workspace by its unresolved path (e.g. through a symlinked /tmp).
    if (given !== real && inside(given, absolute)) absolute = join(real, relative(given, absolute));
    if (!inside(real, absolute)) throw refuse(path, 'is outside the workspace');
    const existing = existingPart(absolute);
    if (existing !== absolute && mustExist) {
      throw new CohortError(
        'not_found',
        `No file or folder "${path}" in the workspace. Use glob to find the right path.`,
        {
          field: 'path',
        },
      );
    }
    let realExisting: string;
    try {
      realExisting = realpathSync(existing);
    } catch {
      // A dangling symlink: writing through it could create a file anywhere.
      throw refuse(path, 'is a symlink to a missing target');
    }
    if (!inside(real, realExisting))
      throw refuse(path, 'leads outside the workspace through a symlink');
    return existing === absolute ? realExisting : join(realExisting, relative(existing, absolute));
  };

  return {
    root: real,
    resolve: resolvePath,
    relative: (absolute) => relative(real, absolute).split(sep).join('/') || '.',
    readDenied: (path) => options.readDenied?.(path),
    readRefused: (path, named) => options.readRefused?.(path, named),
    writeRefused: (path, named) => options.writeRefused?.(path, named),
  };
}
