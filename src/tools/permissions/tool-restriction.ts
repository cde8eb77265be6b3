import { rulesAllow } from './check-permission.js';
import type { PermissionCall, PermissionContext } from './match-rule.js';
import {
  parsePermissionRule,
  ruleCoversTool,
  splitToolList,
  type PermissionRule,
} from './permission-rule.js';
import { reachedPath } from './reached-path.js';

/** A skill's `allowed-tools` or an agent file's `tools`: which tools, and which uses of them. */
export interface ToolRestriction {
  rules: PermissionRule[];
  /** The tools of `available` that some rule names (offered to the model). */
  tools(available: readonly string[]): string[];
  /**
   * The rule that lets `call` run, or undefined: `Bash(git log:*)` permits `git log`, not `git
   * push`. A file tool's path must be permitted as named and where its symlinks lead
   * ({@link reachedPath}): under `Read(docs/**)`, `docs/code/x.ts` with `docs/code` → `../src` is not.
   */
  permits(call: PermissionCall, context: PermissionContext): string | undefined;
  /** As {@link ToolRestriction.permits}, on the path as named only (no symlink followed). */
  permitsAsNamed(call: PermissionCall, context: PermissionContext): string | undefined;
  /**
   * The rule that covers `call` as named or where its symlinks lead (a `disallowedTools` list:
   * `Read(secret/**)` covers `link/x` with `link` → `secret`), or undefined.
   */
  covers(call: PermissionCall, context: PermissionContext): string | undefined;
}

/**
 * Reads a tool list in the permission-rule grammar (Claude's names or cohort's, with optional
 * specifiers) as a restriction.
 *
 * @example
 * const only = toolRestriction('Read Grep Bash(git log:*)');
 * only.tools(['read', 'grep', 'glob', 'bash']); // ['read', 'grep', 'bash']
 */
export function toolRestriction(list: string | readonly string[]): ToolRestriction {
  const rules = splitToolList(list).map(parsePermissionRule);
  const asNamed = (call: PermissionCall, context: PermissionContext) =>
    rulesAllow(rules, call, context, true);
  const reached = (call: PermissionCall, context: PermissionContext) => {
    const path = reachedPath(call, context);
    return path === undefined ? undefined : { ...call, input: { ...(call.input as object), path } };
  };
  return {
    rules,
    tools: (available) =>
      available.filter((name) => rules.some((rule) => ruleCoversTool(rule, name, true))),
    permitsAsNamed: asNamed,
    permits: (call, context) => {
      const rule = asNamed(call, context);
      const there = rule === undefined ? undefined : reached(call, context);
      return there === undefined ? rule : asNamed(there, context);
    },
    covers: (call, context) => {
      const there = reached(call, context);
      return asNamed(call, context) ?? (there === undefined ? undefined : asNamed(there, context));
    },
  };
}

/** The tools that read a path (`Read` rules cover all three), and those that write one. */
export const PATH_VERB_TOOLS = {
  read: ['read', 'grep', 'glob'],
  write: ['write', 'edit', 'write_doc'],
} as const;

/**
 * True when a file tool that `verb`s the real path `real`, named `path` by its call, leaves
 * `restriction` there: the name is within it and the file reached through a symlink is not (a
 * scope of `Read(docs/**)`, `docs/code` → `../src`). Asked on the file actually opened, so a link
 * swapped in after the call was authorized is caught.
 *
 * @example
 * leavesScope(toolRestriction('Read(docs/**)'), 'read', 'docs/code/x.ts', '/repo/src/x.ts', { workspace: '/repo' }); // true
 */
export function leavesScope(
  restriction: ToolRestriction,
  verb: keyof typeof PATH_VERB_TOOLS,
  path: string,
  real: string,
  context: PermissionContext,
): boolean {
  return PATH_VERB_TOOLS[verb].some(
    (tool) =>
      restriction.permitsAsNamed({ tool, input: { path } }, context) !== undefined &&
      restriction.permitsAsNamed({ tool, input: { path: real } }, context) === undefined,
  );
}

/**
 * The rule of `restriction` (a `disallowedTools` list) that covers a file tool `verb`ing the real
 * path `real`, or undefined: `Read(secret/**)` covers the file opened through `link` → `secret`.
 */
export function coversReal(
  restriction: ToolRestriction,
  verb: keyof typeof PATH_VERB_TOOLS,
  real: string,
  context: PermissionContext,
): string | undefined {
  for (const tool of PATH_VERB_TOOLS[verb]) {
    const rule = restriction.permitsAsNamed({ tool, input: { path: real } }, context);
    if (rule !== undefined) return rule;
  }
  return undefined;
}
