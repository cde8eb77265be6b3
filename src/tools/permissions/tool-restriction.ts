import { rulesAllow } from './check-permission.js';
import type { PermissionCall, PermissionContext } from './match-rule.js';
import {
  parsePermissionRule,
  ruleCoversTool,
  splitToolList,
  type PermissionRule,
} from './permission-rule.js';

/** A skill's `allowed-tools` or an agent file's `tools`: which tools, and which uses of them. */
export interface ToolRestriction {
  rules: PermissionRule[];
  /** The tools of `available` that some rule names (offered to the model). */
  tools(available: readonly string[]): string[];
  /** The rule that lets `call` run, or undefined: `Bash(git log:*)` permits `git log`, not `git push`. */
  permits(call: PermissionCall, context: PermissionContext): string | undefined;
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
  return {
    rules,
    tools: (available) =>
      available.filter((name) => rules.some((rule) => ruleCoversTool(rule, name, true))),
    permits: (call, context) => rulesAllow(rules, call, context, true),
  };
}
