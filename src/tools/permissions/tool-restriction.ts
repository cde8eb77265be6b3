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
