import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { existingPart } from '../existing-part.js';
import { type PermissionCall, type PermissionContext } from './match-rule.js';
import { PATH_TOOLS } from './permission-rule.js';

/**
 * Where the path a file tool's call names leads once symlinks are followed: the real path of its
 * longest existing part, with the rest (a file about to be written) appended. Undefined when the
 * call names no path, leads where it says (no symlink on the way), or through a dangling symlink
 * (the tools refuse those anyway). A restriction on paths (a skill's `Read(docs/**)`) must hold
 * for this place too: `docs/code/x.ts` with `docs/code` → `../src` is src/x.ts.
 *
 * @example
 * reachedPath({ tool: 'read', input: { path: 'docs/code/x.ts' } }, { workspace: '/repo' }); // '/repo/src/x.ts'
 */
export function reachedPath(call: PermissionCall, context: PermissionContext): string | undefined {
  // read_skill_resource's path is in the skill's folder, which the tool confines itself.
  if (!PATH_TOOLS.has(call.tool) || call.tool === 'read_skill_resource') return undefined;
  const input = call.input as { path?: unknown } | null;
  const path = typeof input?.path === 'string' ? input.path : '.';
  const named = isAbsolute(path) ? resolve(path) : resolve(context.workspace, path);
  const existing = existingPart(named);
  let real: string;
  try {
    real = join(realpathSync(existing), relative(existing, named));
  } catch {
    return undefined;
  }
  const root = (() => {
    try {
      return realpathSync(context.workspace);
    } catch {
      return context.workspace;
    }
  })();
  // The workspace itself may sit behind a symlink (a symlinked /tmp): that is not a detour.
  const within = relative(context.workspace, named);
  const lexical = within.startsWith('..') || isAbsolute(within) ? named : join(root, within);
  return real === lexical ? undefined : real;
}
