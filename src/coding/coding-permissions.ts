import { isAbsolute, join, relative, resolve } from 'node:path';
import * as z from 'zod';
import type { LoopOptions, ToolAuthorization } from '../agents/loop/index.js';
import {
  parseJsonFile,
  PermissionMode,
  isPresent,
  readFoundFile,
  reviewProjectConfig,
  type CohortConfig,
  type PermissionSettings,
  type ProjectConfigReview,
} from '../config/index.js';
import { CohortError, oneOf, refusedValue } from '../errors/index.js';
import { loadSkills, skillPermits, type Skill } from '../skills/index.js';
import {
  alwaysRule,
  checkPermission,
  createPermissionPolicy,
  parsePermissionRule,
  reachedPath,
  leavesScope,
  toolRestriction,
  type PermissionCall,
  type PermissionPolicy,
} from '../tools/index.js';
import { hiddenFromTools } from './hidden-files.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** A tool call waiting for a person: what it is, why it asks, and the rule "always" would add. */
export interface ApprovalRequest {
  toolCallId: string;
  tool: string;
  input: unknown;
  reason: string;
  /** The allow rule an "always" answer adds for the rest of the session. */
  always: string;
}

/** A person's answer to an {@link ApprovalRequest}. */
export const ApprovalAnswer = lazySchema(() => z.enum(['yes', 'no', 'always']));
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;

/** Claude Code's settings files of a project, read for their `permissions` key only. */
export const CLAUDE_SETTINGS_FILES = ['.claude/settings.json', '.claude/settings.local.json'];

/**
 * The modes a Claude settings file may name: cohort's own, and Claude's `plan`, which has no cohort
 * equivalent and reads as `default`. Anything else is refused: a typo such as `"yolo"` read as
 * `default` would leave the user believing a mode applies that does not.
 */
const claudePermissionModes = () => [...PermissionMode.options, 'plan'] as const;

const ClaudePermissions = lazySchema(() =>
  z.object({
    allow: z.array(z.string()).optional(),
    ask: z.array(z.string()).optional(),
    deny: z.array(z.string()).optional(),
    defaultMode: z.enum(claudePermissionModes()).optional(),
  }),
);

/** Where the user's approvals are read from, and who hears of the settings left out. */
export interface ProjectSettingsOptions {
  /** The environment (`XDG_CONFIG_HOME`, `HOME`, `COHORT_TRUST_PROJECT_CONFIG`); default the process's. */
  env?: Record<string, string | undefined>;
  /** The user's home (tests). */
  home?: string;
  /** Receives each settings file's guarded settings and whether they were approved. */
  onReview?: (review: ProjectConfigReview) => void;
}

/**
 * The `permissions` of the project's `.claude/settings.json` and `.claude/settings.local.json`
 * (other keys of those files are Claude Code's own and ignored). A file that is not valid JSON,
 * or a malformed rule, is `invalid_input` naming the file. Claude's `plan` mode has no cohort
 * equivalent and reads as `default`. The files come with the repository, so what widens (allow
 * rules, a mode that runs calls without asking) applies only once the user approved it for the
 * folder (`cohort config approve`, as a found `cohort.config.json`'s guarded settings); deny and
 * ask rules always apply.
 *
 * @example
 * readClaudePermissions('/repo'); // [{ allow: ['Bash(npm test:*)'], deny: ['Read(.env)'] }] once approved
 */
export function readClaudePermissions(
  workspace: string,
  options: ProjectSettingsOptions = {},
): Array<Partial<PermissionSettings>> {
  const sources: Array<Partial<PermissionSettings>> = [];
  for (const name of CLAUDE_SETTINGS_FILES) {
    const file = join(workspace, name);
    if (!isPresent(file)) continue;
    const text = readFoundFile(file, 'settings file');
    const data = parseJsonFile(file, text);
    const permissions = (data as { permissions?: unknown } | null)?.permissions ?? {};
    const parsed = ClaudePermissions.safeParse(permissions);
    if (!parsed.success) {
      const key = parsed.error.issues[0]?.path[0];
      const problem =
        typeof key !== 'string'
          ? 'permissions must be an object ({ "allow": [...], "deny": [...] })'
          : key === 'defaultMode'
            ? refusedValue(
                'permissions.defaultMode',
                `a mode, ${oneOf(claudePermissionModes())}`,
                (permissions as { defaultMode?: unknown }).defaultMode,
              )
            : `permissions.${key} must be a list of rules, such as ["Bash(npm test:*)"]`;
      throw new CohortError('invalid_input', `${file}: ${problem}`, {
        file,
        field: typeof key === 'string' ? `permissions.${key}` : 'permissions',
      });
    }
    const { allow, ask, deny, defaultMode } = parsed.data;
    for (const rule of [...(allow ?? []), ...(ask ?? []), ...(deny ?? [])]) {
      try {
        parsePermissionRule(rule);
      } catch (error) {
        throw new CohortError('invalid_input', `${file}: ${(error as Error).message}`, {
          file,
          field: 'permissions',
        });
      }
    }
    const mode = PermissionMode.safeParse(defaultMode);
    const widening = {
      ...(allow ? { allow } : {}),
      ...(mode.success ? { defaultMode: mode.data } : {}),
    };
    const review = reviewProjectConfig({
      cwd: workspace,
      configFile: file,
      settings: { permissions: widening },
      ...(options.env ? { env: options.env } : {}),
      ...(options.home ? { home: options.home } : {}),
    });
    options.onReview?.(review);
    sources.push({
      ...(review.approved ? widening : {}),
      ...(ask ? { ask } : {}),
      ...(deny ? { deny } : {}),
    });
  }
  return sources;
}

/**
 * A skill's `allowed-tools` checked against the user's approval, when the skill comes with the
 * workspace (`skills/`, `.cohort/skills/`, `.claude/skills/`): a repository's skill could allow
 * `Bash` and describe itself to match every request. Undefined for a skill of the user's own
 * folders, or one without `allowed-tools`. Approved with `cohort config approve`, per SKILL.md
 * and list.
 *
 * @example
 * reviewProjectSkill(skill, '/repo')?.approved; // false until `cohort config approve`
 */
export function reviewProjectSkill(
  skill: Skill,
  workspace: string,
  options: ProjectSettingsOptions = {},
): ProjectConfigReview | undefined {
  if (!skill.source.startsWith('project') || !skill.allowedTools?.length) return undefined;
  const review = reviewProjectConfig({
    cwd: workspace,
    configFile: skill.file,
    settings: { 'allowed-tools': skill.allowedTools },
    ...(options.env ? { env: options.env } : {}),
    ...(options.home ? { home: options.home } : {}),
  });
  options.onReview?.(review);
  return review;
}

/**
 * The workspace's settings that widen the rules and need the user's approval: its
 * `.claude/settings*.json` and the `allowed-tools` of its skills, each checked (for `cohort code`
 * to say which it leaves out, and `cohort config approve` to approve them).
 *
 * @example
 * reviewWorkspaceSettings('/repo').filter((review) => !review.approved);
 */
export function reviewWorkspaceSettings(
  workspace: string,
  options: Omit<ProjectSettingsOptions, 'onReview'> = {},
): ProjectConfigReview[] {
  const reviews: ProjectConfigReview[] = [];
  const onReview = (review: ProjectConfigReview) => void reviews.push(review);
  readClaudePermissions(workspace, { ...options, onReview });
  const { skills } = loadSkills({ workspace, ...(options.home ? { home: options.home } : {}) });
  for (const skill of skills) reviewProjectSkill(skill, workspace, { ...options, onReview });
  return reviews;
}

/** `sandbox.denyRead` entries as Read deny rules, so the file tools hide what bash cannot see. */
export function denyReadRules(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    if (entry.startsWith('~/')) return `Read(${entry})`;
    if (isAbsolute(entry)) return `Read(/${entry})`;
    return `Read(${entry})`;
  });
}

/**
 * The coding assistant's policy: `cohort.config.json` (`permissions`), the project's Claude Code
 * settings, `sandbox.denyRead` as Read deny rules, and the command line's rules and mode (which
 * wins over the files' modes).
 *
 * @example
 * const policy = codingPermissionPolicy({ workspace: '/repo', config, extra: { allow: ['Bash(npm test:*)'] } });
 */
export function codingPermissionPolicy(options: {
  workspace: string;
  config: CohortConfig;
  extra?: Partial<PermissionSettings>;
  /** Where the approvals of `.claude/settings*.json` are read from (see {@link readClaudePermissions}). */
  projectSettings?: ProjectSettingsOptions;
}): PermissionPolicy {
  return createPermissionPolicy([
    options.config.permissions,
    ...readClaudePermissions(options.workspace, options.projectSettings),
    {
      deny: denyReadRules([...options.config.sandbox.denyRead, ...hiddenFromTools(options.config)]),
    },
    ...(options.extra ? [options.extra] : []),
  ]);
}

/**
 * Why the file tools may not read a real path: the deny rule of `policy` that covers reading it,
 * or undefined. Given to the workspace, so the check applies to the file actually opened (a
 * symlink made by bash to `.env`, a grep over `**\/.env`), not only to the path a call names.
 *
 * @example
 * createWorkspace(root, { readDenied: readDeniedBy(policy, { workspace: root }) });
 */
export function readDeniedBy(
  policy: PermissionPolicy,
  context: { workspace: string; home?: string },
): (real: string) => string | undefined {
  const denyOnly: PermissionPolicy = {
    allow: [],
    ask: [],
    deny: policy.deny,
    mode: 'bypassPermissions',
  };
  return (real) => {
    const decision = checkPermission(denyOnly, { tool: 'read', input: { path: real } }, context);
    return decision.behavior === 'deny' ? decision.rule : undefined;
  };
}

/**
 * The path a file call names and where it leads, when the skill's `allowed-tools` permit the name
 * but not the place a symlink on the way leads to ({@link reachedPath}); undefined otherwise.
 */
function linkedOutOfScope(
  skill: Skill | undefined,
  call: PermissionCall,
  context: { workspace: string; home?: string },
): { path: string; shown: string } | undefined {
  if (!skill?.allowedTools) return undefined;
  if (!toolRestriction(skill.allowedTools).permitsAsNamed(call, context)) return undefined;
  const reached = reachedPath(call, context);
  if (reached === undefined) return undefined;
  const path = String((call.input as { path?: unknown } | null)?.path ?? '.');
  return { path, shown: relative(context.workspace, reached) || '.' };
}

/** How strict a decision is: a file reached through a symlink may not be stricter than its name. */
const STRICTNESS = { allow: 0, ask: 1, deny: 2 } as const;

/**
 * Why the file tools may not `verb` a real path the call named `path`: the rules decide on both,
 * and when the real file (reached through a symlink) gets a stricter answer than the name did, or
 * is asked about by a rule the name was not (the person approved the name, not the file it leads
 * to), the call is refused, naming the real path. Only a path with a symlink on the way is
 * decided twice.
 */
function refusedThroughLink(
  policy: PermissionPolicy,
  context: { workspace: string; home?: string },
  verb: 'read' | 'write',
  skill?: Skill,
): (real: string, path: string) => string | undefined {
  const decide = (path: string) =>
    checkPermission(policy, { tool: verb, input: { path } }, context);
  const scope = skill?.allowedTools ? toolRestriction(skill.allowedTools) : undefined;
  return (real, path) => {
    // Named as the call gave it when the lexical path is the real one (no symlink on the way).
    if (resolve(context.workspace, path) === real) return undefined;
    const shownReal = relative(context.workspace, real) || '.';
    // The active skill's scope holds where the link leads, checked again on the file opened (a
    // link swapped after the call was authorized).
    const leaves = scope !== undefined && leavesScope(scope, verb, path, real, context);
    if (leaves)
      return `Permission denied: "${path}" leads to ${shownReal} through a symbolic link, and the active skill "${skill?.name}" allows only ${skill?.allowedTools?.join(', ')}, which does not cover ${shownReal}. Do not retry it through another name.`;
    const named = decide(path);
    const reached = decide(real);
    const askedApart =
      reached.behavior === 'ask' && reached.rule !== undefined && reached.rule !== named.rule;
    if (STRICTNESS[reached.behavior] <= STRICTNESS[named.behavior] && !askedApart) return undefined;
    const shown = shownReal;
    return reached.behavior === 'deny'
      ? `Permission denied: "${path}" leads to ${shown} through a symbolic link, and ${reached.reason}. Do not retry it; find another way or ask the user.`
      : `"${path}" leads to ${shown} through a symbolic link, where ${reached.reason}: ${verb} it by its own name, ${shown}, so the call is checked (and asked about) as itself.`;
  };
}

/**
 * Why the file tools may not read a real path the call named `path` though no deny rule covers it
 * ({@link readDeniedBy} is checked first): the file reached through a symlink is asked about by a
 * rule the name was not (`Ask(Read(secret/**))` while reads go unasked), so the person would never
 * see the question. See {@link refusedThroughLink}.
 *
 * @example
 * createWorkspace(root, { readRefused: readRefusedBy(policy, { workspace: root }) });
 */
export function readRefusedBy(
  policy: PermissionPolicy,
  context: { workspace: string; home?: string },
  skill?: Skill,
): (real: string, path: string) => string | undefined {
  return refusedThroughLink(policy, context, 'read', skill);
}

/**
 * Why the file tools may not write a real path the call named `path` (see
 * {@link refusedThroughLink}). An `Edit(secret/**)` deny or ask rule, or the scope of an allow
 * rule such as `Edit(docs/**)` in `dontAsk` mode, was dodged by writing `link/x` after bash made
 * `link` → `secret`. Given to the workspace, so it holds for a symlink made between the check of
 * the call and the write.
 *
 * @example
 * createWorkspace(root, { writeRefused: writeRefusedBy(policy, { workspace: root }) });
 */
export function writeRefusedBy(
  policy: PermissionPolicy,
  context: { workspace: string; home?: string },
  skill?: Skill,
): (real: string, path: string) => string | undefined {
  return refusedThroughLink(policy, context, 'write', skill);
}

/** Options of {@link createCodingAuthorizer}. */
export interface CodingAuthorizerOptions {
  policy: PermissionPolicy;
  /** The active skill: its `allowed-tools` limit every call first. */
  skill?: Skill;
  /**
   * Whether the active skill's `allowed-tools` also run without asking (Claude Code's meaning).
   * Default true; false for a project skill whose `allowed-tools` the user has not approved
   * ({@link reviewProjectSkill}): they then only limit.
   */
  skillAllows?: boolean;
  workspace: string;
  home?: string;
  /** Allow rules added by "always" answers; grows during the session. */
  sessionAllow: string[];
  /** Asks a person (the terminal); without it an `ask` pauses the run. */
  approve?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
}

/**
 * The authorize hook of the main coding agent: the active skill's `allowed-tools`, then the rules
 * (deny > ask > allow, "always" answers included), then the person: asked at once when `approve`
 * is given, otherwise the run pauses. Every refusal is a tool error the model can read.
 *
 * @example
 * runLoop({ ..., authorize: createCodingAuthorizer({ policy, workspace, sessionAllow: [] }) });
 */
export function createCodingAuthorizer(
  options: CodingAuthorizerOptions,
): NonNullable<LoopOptions['authorize']> {
  const context = { workspace: options.workspace, ...(options.home ? { home: options.home } : {}) };
  return async (call): Promise<ToolAuthorization> => {
    const permissionCall = { tool: call.toolName, input: call.input };
    if (!skillPermits(options.skill, permissionCall, context)) {
      const allowed = `the active skill "${options.skill?.name}" allows only ${options.skill?.allowedTools?.join(', ')}`;
      const reached = linkedOutOfScope(options.skill, permissionCall, context);
      return {
        behavior: 'deny',
        message: reached
          ? `Permission denied: "${reached.path}" leads to ${reached.shown} through a symbolic link, and ${allowed}, which does not cover ${reached.shown}. Do not retry it through another name.`
          : `Permission denied: ${allowed}; this ${call.toolName} call is not one of them.`,
      };
    }
    // A skill's allowed-tools also run without asking (Claude Code's meaning); deny still wins.
    const policy = {
      ...options.policy,
      allow: [
        ...options.policy.allow,
        ...options.sessionAllow.map(parsePermissionRule),
        ...(options.skillAllows === false ? [] : (options.skill?.allowedTools ?? [])).map(
          parsePermissionRule,
        ),
      ],
    };
    const decision = checkPermission(policy, permissionCall, context);
    if (decision.behavior === 'allow') return { behavior: 'allow' };
    if (decision.behavior === 'deny')
      return {
        behavior: 'deny',
        message: `Permission denied: ${decision.reason}. Do not retry it; find another way or ask the user.`,
      };
    if (!options.approve) return { behavior: 'pause', reason: decision.reason };
    const request: ApprovalRequest = {
      toolCallId: call.toolCallId,
      tool: call.toolName,
      input: call.input,
      reason: decision.reason,
      always: alwaysRule(permissionCall),
    };
    const answer = await options.approve(request);
    if (answer === 'always') options.sessionAllow.push(request.always);
    if (answer === 'no')
      return {
        behavior: 'deny',
        message: `The user declined this ${call.toolName} call. Do not retry it; ask what to do instead.`,
      };
    return { behavior: 'allow' };
  };
}
