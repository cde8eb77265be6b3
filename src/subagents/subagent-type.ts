import * as z from 'zod';
import { MAX_DESCRIPTION_CHARS } from '../skills/index.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Subagent type names (Claude Code's rule): lowercase letters, digits and hyphens. */
export const SUBAGENT_NAME_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

/** Claude Code's model aliases, mapped onto cohort's binary choice (spec: fast or full). */
export const MODEL_ALIASES: Readonly<Record<string, 'fast' | 'full'>> = {
  haiku: 'fast',
  sonnet: 'full',
  opus: 'full',
};

/** A kind of subagent the `task` tool can spawn: built in, or from an agent file. */
export const SubagentType = lazySchema(() =>
  z.object({
    name: z
      .string()
      .regex(SUBAGENT_NAME_PATTERN, 'name must be lowercase letters, digits and hyphens'),
    /** At most {@link MAX_DESCRIPTION_CHARS}, as a skill's: the task tool lists every description on each call. */
    description: z
      .string()
      .trim()
      .min(1, 'description must not be empty')
      .max(
        MAX_DESCRIPTION_CHARS,
        `description must be at most ${MAX_DESCRIPTION_CHARS} characters`,
      ),
    /** Permission rules (`read`, `Read`, `Bash(npm test:*)`); undefined inherits every tool of the parent. */
    tools: z.array(z.string()).optional(),
    disallowedTools: z.array(z.string()).default([]),
    /** `fast`, `full`, `inherit` or a model id. */
    model: z.string().min(1).default('inherit'),
    /** Turn budget of one spawn; overrides config `subagents.maxTurns`. */
    maxTurns: z.number().int().positive().optional(),
    /** Skills whose bodies are added to this subagent's system prompt. */
    skills: z.array(z.string()).default([]),
    systemPrompt: z.string().trim().min(1, 'the body (system prompt) must not be empty'),
    /** `builtin` or the file it came from. */
    source: z.string().default('builtin'),
    /** Frontmatter keys cohort does not use (`color`, `permissionMode`, ...), kept as written. */
    extra: z.record(z.string(), z.unknown()).default({}),
  }),
);
export type SubagentType = z.infer<typeof SubagentType>;
export type SubagentTypeInput = z.input<typeof SubagentType>;

/**
 * The model a subagent runs on: `inherit` takes the parent's, Claude's aliases map to a tier, and
 * anything else (`fast`, `full`, a model id) is used as written.
 *
 * @example
 * subagentModel('haiku', 'full'); // 'fast'
 * subagentModel('inherit', 'gpt-4o'); // 'gpt-4o'
 */
export function subagentModel(model: string, parentModel: string): string {
  const lower = model.toLowerCase();
  if (lower === 'inherit') return parentModel;
  return MODEL_ALIASES[lower] ?? model;
}
