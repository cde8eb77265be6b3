import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `path` names a file this process may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The program a sandboxed run starts: `configured` when given (and executable, else none: a
 * configured path that does not work must not silently fall back to another program), otherwise
 * the first executable `name` in `first`, then on PATH, then in `last`.
 *
 * @example
 * findExecutable('bwrap', { env: process.env, last: ['/usr/bin'] }); // '/usr/bin/bwrap'
 */
export function findExecutable(
  name: string,
  options: {
    configured?: string | undefined;
    env: Record<string, string | undefined>;
    first?: string[];
    last?: string[];
  },
): string | undefined {
  if (options.configured) return isExecutable(options.configured) ? options.configured : undefined;
  const onPath = (options.env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...(options.first ?? []), ...onPath, ...(options.last ?? [])]
    .map((dir) => join(dir, name))
    .find(isExecutable);
}
