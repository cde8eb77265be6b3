import { CohortError } from '../../errors/index.js';
import { globCostProblem } from '../glob-pattern-cost.js';

/**
 * Claude Code's tool names and the cohort tools each covers. Claude documents that `Edit` rules
 * apply to every built-in tool that edits files and `Read` rules to every tool that reads them
 * (Grep and Glob included); cohort's own tool names are accepted as well.
 */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  Read: ['read', 'grep', 'glob', 'read_skill_resource'],
  Grep: ['grep'],
  Glob: ['glob'],
  LS: ['glob'],
  Bash: ['bash'],
  Edit: ['edit', 'write', 'write_doc'],
  MultiEdit: ['edit'],
  Write: ['write', 'write_doc'],
  NotebookEdit: ['edit'],
  WebFetch: ['web_fetch'],
  WebSearch: ['web_search'],
  Task: ['task'],
  Agent: ['task'],
};

/**
 * The cohort tool each Claude tool name *is* (not what its rules cover): what a skill's
 * `allowed-tools: Read Grep` offers. `Read` there is the read tool, not grep and glob as well.
 */
export const CLAUDE_TOOL_IDENTITY: Readonly<Record<string, readonly string[]>> = {
  ...CLAUDE_TOOL_NAMES,
  Read: ['read', 'read_skill_resource'],
  Edit: ['edit'],
};

/** Tools whose rule specifier is a path (gitignore-style, as in Claude Code). */
export const PATH_TOOLS: ReadonlySet<string> = new Set([
  'read',
  'grep',
  'glob',
  'edit',
  'write',
  'write_doc',
  'read_skill_resource',
]);

/** One permission rule: `Tool` or `Tool(specifier)`, e.g. `Bash(npm test:*)`, `Read(src/**)`. */
export interface PermissionRule {
  /** The rule as written. */
  text: string;
  /** The tool name as written (`Bash`, `bash`, `mcp__github__create_issue`, `mcp__github__*`). */
  tool: string;
  /** The part in parentheses; undefined matches every use of the tool. */
  specifier?: string;
}

const RULE = /^([A-Za-z_][\w-]*\*?)(?:\((.*)\))?$/s;

/**
 * Parses one rule. A malformed rule (unbalanced parentheses, an empty name) is `invalid_input`
 * naming the rule, so a typo in settings is reported instead of silently never matching.
 *
 * @example
 * parsePermissionRule('Bash(npm test:*)'); // { text, tool: 'Bash', specifier: 'npm test:*' }
 */
export function parsePermissionRule(text: string): PermissionRule {
  const trimmed = text.trim();
  const match = RULE.exec(trimmed);
  if (!match?.[1]) {
    throw new CohortError(
      'invalid_input',
      `Permission rule "${text}" is not Tool or Tool(specifier), e.g. Bash(npm test:*), Read(src/**), Edit, WebFetch(domain:example.org).`,
      { field: 'permissions' },
    );
  }
  const specifier = match[2]?.trim();
  // A path rule is matched by picomatch against every path a model names: a rule that backtracks
  // (`Read(a*a*a*a*a*a*a*a*b)` took 0.85 s on a 40-character path and did not end on 80) would
  // hold the process, `cohort serve` with it; a repository's .claude/settings.json can hold one.
  const costly =
    specifier && toolsOfRule(match[1]).some((tool) => PATH_TOOLS.has(tool))
      ? globCostProblem(specifier)
      : undefined;
  if (costly !== undefined) {
    throw new CohortError('invalid_input', `Permission rule "${text}" has ${costly}.`, {
      field: 'permissions',
    });
  }
  return {
    text: trimmed,
    tool: match[1],
    ...(specifier === undefined || specifier === '' || specifier === '*' ? {} : { specifier }),
  };
}

/**
 * Splits a tool list as skills (`allowed-tools`) and agent files (`tools`) write it: separated by
 * spaces or commas, except inside parentheses, so `Read Grep Bash(git log:*)` is three rules.
 *
 * @example
 * splitToolList('Read, Grep Bash(git log:*)'); // ['Read', 'Grep', 'Bash(git log:*)']
 */
export function splitToolList(list: string | readonly string[]): string[] {
  if (typeof list !== 'string') return list.flatMap((item) => splitToolList(item));
  const items: string[] = [];
  let current = '';
  let depth = 0;
  for (const char of list) {
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (current) items.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  if (current) items.push(current);
  return items;
}

/**
 * The cohort tool names a rule's tool covers: Claude names through {@link CLAUDE_TOOL_NAMES},
 * `mcp__server__*` and `mcp__server` for every tool of an MCP server (as a prefix, marked by a
 * trailing `*`), any other name as itself.
 *
 * @example
 * toolsOfRule('Edit'); // ['edit', 'write', 'write_doc']
 */
export function toolsOfRule(tool: string, identity = false): readonly string[] {
  const claude = (identity ? CLAUDE_TOOL_IDENTITY : CLAUDE_TOOL_NAMES)[tool];
  if (claude) return claude;
  if (tool.startsWith('mcp__') && !tool.endsWith('*') && !tool.slice(5).includes('__'))
    return [`${tool}__*`];
  return [tool];
}

/**
 * True when the rule's tool covers the cohort tool `name`; with `identity`, only the tool the name
 * stands for (see {@link CLAUDE_TOOL_IDENTITY}).
 */
export function ruleCoversTool(rule: PermissionRule, name: string, identity = false): boolean {
  return toolsOfRule(rule.tool, identity).some((tool) =>
    tool.endsWith('*') ? name.startsWith(tool.slice(0, -1)) : tool === name,
  );
}
