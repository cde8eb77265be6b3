import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  camelKeys,
  NOT_UTF8_NAME,
  parseFrontmatter,
  readFolderEntries,
  readFoundFile,
} from '../config/index.js';
import { CohortError, isCohortError, parseInput, reasonInFile } from '../errors/index.js';
import { parsePermissionRule, splitToolList } from '../tools/index.js';
import { builtinSubagentTypes } from './builtin-types.js';
import { SubagentType } from './subagent-type.js';

/** Frontmatter keys cohort reads; every other key is kept in `extra`. */
const USED_KEYS = new Set([
  'name',
  'description',
  'tools',
  'disallowedTools',
  'model',
  'maxTurns',
  'skills',
]);

/**
 * A `tools` value (comma/space-separated string or list) as permission rules, kept as written:
 * `Read, Grep, Bash(npm test:*)` gives read and grep, and bash for `npm test` only.
 */
function toolRules(value: unknown, field: string, file: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = typeof value === 'string' ? value : Array.isArray(value) ? value : undefined;
  if (!items || (Array.isArray(items) && items.some((item) => typeof item !== 'string'))) {
    throw new CohortError(
      'invalid_input',
      `${file}: ${field}: must be a comma-separated string or a list of tool names`,
      { file, field },
    );
  }
  const rules = splitToolList(items as string | string[]);
  for (const rule of rules) {
    try {
      parsePermissionRule(rule);
    } catch (error) {
      throw new CohortError('invalid_input', `${file}: ${field}: ${(error as Error).message}`, {
        file,
        field,
      });
    }
  }
  return [...new Set(rules)];
}

/**
 * Parses a subagent file in Claude Code's format: frontmatter `name`, `description`, `tools`
 * (absent = inherit all), `disallowedTools`, `model` (`fast`/`full`/`inherit`/`haiku`/`sonnet`/
 * `opus`/a model id), `maxTurns`, `skills`; the body is the system prompt. `tools` is read in
 * the permission-rule grammar (Claude's `Read`, `Bash(npm test:*)` or cohort's names) and enforced
 * call by call; other keys (`color`, `permissionMode`) are kept in `extra`, not refused.
 *
 * @example
 * const type = parseSubagentFile(readFileSync('.claude/agents/code-reviewer.md', 'utf8'), '.claude/agents/code-reviewer.md');
 */
export function parseSubagentFile(text: string, file: string): SubagentType {
  const { data, body } = parseFrontmatter(text, file);
  const fields = camelKeys(data);
  const extra = Object.fromEntries(Object.entries(fields).filter(([key]) => !USED_KEYS.has(key)));
  const tools = toolRules(fields.tools, 'tools', file);
  const disallowed = toolRules(fields.disallowedTools, 'disallowedTools', file);
  const skills =
    typeof fields.skills === 'string'
      ? fields.skills.split(/[,\s]+/).filter(Boolean)
      : fields.skills;
  return parseInput(
    SubagentType,
    {
      name: fields.name,
      description: fields.description,
      ...(tools ? { tools } : {}),
      ...(disallowed ? { disallowedTools: disallowed } : {}),
      ...(fields.model === undefined ? {} : { model: String(fields.model) }),
      ...(fields.maxTurns === undefined ? {} : { maxTurns: fields.maxTurns }),
      ...(skills === undefined ? {} : { skills }),
      systemPrompt: body,
      source: file,
      extra,
    },
    { file },
  );
}

/** A subagent file that could not be loaded. */
export interface SubagentFileProblem {
  file: string;
  field?: string;
  reason: string;
}

/** The subagent types available in a workspace. */
export interface SubagentCatalog {
  types: Map<string, SubagentType>;
  problems: SubagentFileProblem[];
  /** Types replaced by a later definition of the same name (built-in < .claude < .cohort). */
  overridden: Array<{ name: string; source: string; by: string }>;
}

/**
 * The folders searched for subagent files, lowest precedence first: the user's
 * `~/.claude/agents/`, then the project's `.claude/agents/` and `.cohort/agents/` (project over
 * user, as Claude Code orders them).
 */
export function subagentDirs(workspace: string, home: string = homedir()): string[] {
  const root = resolve(workspace);
  return [
    join(home, '.claude', 'agents'),
    join(root, '.claude', 'agents'),
    join(root, '.cohort', 'agents'),
  ];
}

/**
 * The built-in types plus every `*.md` in `~/.claude/agents/` and the workspace's `.claude/agents/`
 * and `.cohort/agents/`.
 * A later definition of a name replaces an earlier one (reported in `overridden`); a malformed
 * file is reported in `problems` and skipped.
 *
 * @example
 * const { types, problems } = loadSubagentTypes('/repo');
 * types.get('explorer')?.tools; // ['glob', 'grep', 'read']
 */
export function loadSubagentTypes(
  workspace: string,
  options: { home?: string } = {},
): SubagentCatalog {
  const types = new Map(builtinSubagentTypes().map((type) => [type.name, type]));
  const problems: SubagentFileProblem[] = [];
  const overridden: SubagentCatalog['overridden'] = [];
  for (const dir of subagentDirs(workspace, options.home)) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    for (const { name, utf8 } of readFolderEntries(dir)
      .filter((entry) => entry.name.endsWith('.md'))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const file = join(dir, name);
      // Opened by its decoded name, a name that is not UTF-8 said "(ENOENT)", as if not there.
      if (!utf8) {
        problems.push({ file, reason: NOT_UTF8_NAME });
        continue;
      }
      try {
        const type = parseSubagentFile(readFoundFile(file, 'subagent file'), file);
        const earlier = types.get(type.name);
        if (earlier) overridden.push({ name: type.name, source: earlier.source, by: file });
        types.set(type.name, type);
      } catch (error) {
        const field = isCohortError(error) ? error.field : undefined;
        problems.push({
          file,
          ...(field ? { field } : {}),
          reason: isCohortError(error)
            ? reasonInFile(error)
            : error instanceof Error
              ? error.message
              : String(error),
        });
      }
    }
  }
  return { types, problems, overridden };
}
