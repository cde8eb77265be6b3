import * as z from 'zod';
import { parseFrontmatter } from '../config/index.js';
import { CohortError, formatNumber, parseInput } from '../errors/index.js';
import { parsePermissionRule, splitToolList } from '../tools/index.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Skill names (Agent Skills format): lowercase letters and digits, single hyphens between. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The file that makes a folder a skill. */
export const SKILL_FILE = 'SKILL.md';

/**
 * `allowed-tools` in the permission-rule grammar (Claude's `Read Grep Bash(git log:*)` or cohort's
 * names), split on spaces and commas outside parentheses; a malformed rule is refused.
 */
const toolList = lazySchema(() =>
  z.union([z.string(), z.array(z.string().min(1))]).transform((value, context) => {
    const items = splitToolList(value);
    for (const item of items) {
      try {
        parsePermissionRule(item);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }
    return items;
  }),
);

/**
 * Most characters of a skill's description (Agent Skills spec), and of a subagent type's: every
 * description is listed to the model on each call.
 */
export const MAX_DESCRIPTION_CHARS = 1024;

/**
 * The message for a frontmatter field that must be text: missing, or YAML read the value as
 * something else (`name: 123` is a number, `description: true` a flag), which was reported as
 * missing with the value right there.
 */
const textRequired =
  (field: string) =>
  (issue: { input: unknown }): string =>
    issue.input === undefined || issue.input === null
      ? `${field} is required`
      : `${field} must be text, not ${kindOf(issue.input)} (${String(issue.input)}): put it in quotes`;

/** What YAML made of a value that is not text, as a message names it. */
const kindOf = (value: unknown): string =>
  typeof value === 'number'
    ? 'a number'
    : typeof value === 'boolean'
      ? 'a boolean'
      : Array.isArray(value)
        ? 'a list'
        : `a ${typeof value}`;

/**
 * A SKILL.md frontmatter (Agent Skills format, plus cohort's `model`). Keys outside the format,
 * such as Claude Code's `argument-hint`, are ignored rather than refused.
 */
export const SkillFrontmatter = lazySchema(() =>
  z.object({
    name: z
      .string({ error: textRequired('name') })
      .min(1, 'name must not be empty')
      .max(64, 'name must be at most 64 characters')
      .regex(
        SKILL_NAME_PATTERN,
        'name must be lowercase letters, digits and single hyphens, not starting or ending with a hyphen',
      ),
    description: z
      .string({ error: textRequired('description') })
      .trim()
      .min(1, 'description must not be empty')
      .max(
        MAX_DESCRIPTION_CHARS,
        `description must be at most ${MAX_DESCRIPTION_CHARS} characters`,
      ),
    license: z.string().optional(),
    compatibility: z.string().max(500, 'compatibility must be at most 500 characters').optional(),
    metadata: z
      .record(z.string(), z.string({ error: 'metadata values must be strings' }))
      .optional(),
    'allowed-tools': toolList.optional(),
    /** cohort: `fast`, `full` or a model id used while the skill is active. */
    model: z.string().min(1).optional(),
  }),
);

/**
 * Most characters of a skill's body. Activation puts the whole body into the main agent's prompt,
 * on every model call while it is active; the Agent Skills guidance is under 500 lines.
 */
export const MAX_SKILL_BODY_CHARS = 100_000;

/** Where a skill was found, earliest search path first. */
export const SkillSource = lazySchema(() =>
  z.enum(['project', 'project-cohort', 'project-claude', 'user', 'user-claude', 'builtin']),
);
export type SkillSource = z.infer<typeof SkillSource>;

/** A loaded skill: its frontmatter fields, the body as prompt, and where it lives. */
export const Skill = lazySchema(() =>
  z.object({
    name: z.string(),
    description: z.string(),
    license: z.string().optional(),
    compatibility: z.string().optional(),
    metadata: z.record(z.string(), z.string()),
    /** Tools the skill may use, as permission rules (`Read`, `Bash(git log:*)`); undefined means every tool. */
    allowedTools: z.array(z.string()).optional(),
    model: z.string().optional(),
    /** The SKILL.md body, injected into the main agent's context when the skill is activated. */
    prompt: z.string(),
    /** The skill's folder (for `references/`, `scripts/`, `assets/`). */
    dir: z.string(),
    file: z.string(),
    source: SkillSource,
  }),
);
export type Skill = z.infer<typeof Skill>;

/**
 * Parses a SKILL.md against the Agent Skills rules. `folderName` is the skill's folder, which the
 * `name` must equal. A violation is an `invalid_input` error with `file` and `field` set.
 *
 * @example
 * const skill = parseSkillFile(text, 'skills/refactor/SKILL.md', {
 *   folderName: 'refactor',
 *   dir: 'skills/refactor',
 *   source: 'project',
 * });
 */
export function parseSkillFile(
  text: string,
  file: string,
  options: { folderName: string; dir: string; source: SkillSource },
): Skill {
  const { data, body } = parseFrontmatter(text, file);
  if (Object.keys(data).length === 0) {
    throw new CohortError(
      'invalid_input',
      `${file}: missing YAML frontmatter with name and description`,
      {
        file,
        field: 'frontmatter',
      },
    );
  }
  const fields = parseInput(SkillFrontmatter, data, { file });
  if (fields.name !== options.folderName) {
    throw new CohortError(
      'invalid_input',
      `${file}: name: "${fields.name}" must equal its folder name "${options.folderName}"`,
      { file, field: 'name' },
    );
  }
  const prompt = body.trim();
  if (prompt.length > MAX_SKILL_BODY_CHARS) {
    throw new CohortError(
      'invalid_input',
      `${file}: body is ${formatNumber(prompt.length)} characters; at most ${formatNumber(MAX_SKILL_BODY_CHARS)} fit in a prompt. Move the detail to references/, which the model reads when it needs it.`,
      { file, field: 'body' },
    );
  }
  return {
    name: fields.name,
    description: fields.description,
    ...(fields.license === undefined ? {} : { license: fields.license }),
    ...(fields.compatibility === undefined ? {} : { compatibility: fields.compatibility }),
    metadata: fields.metadata ?? {},
    ...(fields['allowed-tools'] === undefined ? {} : { allowedTools: fields['allowed-tools'] }),
    ...(fields.model === undefined ? {} : { model: fields.model }),
    prompt,
    dir: options.dir,
    file,
    source: options.source,
  };
}
