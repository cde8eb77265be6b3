import type { PermissionMode, PermissionSettings } from '../../config/index.js';
import { commandMayMatch } from './command-may-match.js';
import { ruleMatches, type PermissionCall, type PermissionContext } from './match-rule.js';
import { parsePermissionRule, ruleCoversTool, type PermissionRule } from './permission-rule.js';
import { plainCommand, splitShellCommand, writesFiles } from './shell-command.js';

/** What the rules say about one call. */
export interface PermissionDecision {
  behavior: 'allow' | 'ask' | 'deny';
  /** The rule that decided, as written; undefined when the mode's default decided. */
  rule?: string;
  /** Why, in words shown to the user and (for a refusal) to the model. */
  reason: string;
}

/** Parsed rule lists and the default mode: what {@link checkPermission} reads. */
export interface PermissionPolicy {
  allow: PermissionRule[];
  ask: PermissionRule[];
  deny: PermissionRule[];
  mode: PermissionMode;
}

/** Tools that only read (or only spawn read-only work): they run unless a rule says otherwise. */
const READ_ONLY_TOOLS = new Set([
  'read',
  'grep',
  'glob',
  'web_search',
  'read_skill_resource',
  'task',
]);
/** Tools that change files: `acceptEdits` lets them run. */
const EDIT_TOOLS = new Set(['edit', 'write', 'write_doc']);

/**
 * A policy from rule lists (several sources are concatenated: config, `.claude/settings.json`,
 * the command line). A malformed rule is `invalid_input`.
 *
 * @example
 * const policy = createPermissionPolicy([{ allow: ['Bash(npm test:*)'], deny: ['Read(.env)'] }]);
 */
export function createPermissionPolicy(
  sources: ReadonlyArray<Partial<PermissionSettings>>,
  mode?: PermissionMode,
): PermissionPolicy {
  const rules = (key: 'allow' | 'ask' | 'deny') =>
    sources.flatMap((source) => (source[key] ?? []).map(parsePermissionRule));
  const lastMode = [...sources].reverse().find((source) => source.defaultMode)?.defaultMode;
  return {
    allow: rules('allow'),
    ask: rules('ask'),
    deny: rules('deny'),
    mode: mode ?? lastMode ?? 'default',
  };
}

/**
 * Decides one tool call: deny rules first, then ask, then allow (the first match wins; being more
 * specific does not matter), as Claude Code does; then the mode's default. A Bash command is split
 * into its simple commands: it is denied when any part matches a deny rule, asks when any part
 * matches an ask rule, and is allowed by rules only when every part is. A command with a
 * substitution (`$(…)`) is never allowed by a command-specific rule.
 *
 * This is the one check every tool call goes through, MCP tools (`mcp__server__tool`) included.
 *
 * @example
 * checkPermission(policy, { tool: 'bash', input: { command: 'npm test' } }, { workspace: '/repo' });
 * // { behavior: 'allow', rule: 'Bash(npm test:*)', reason: 'allowed by Bash(npm test:*)' }
 */
export function checkPermission(
  policy: PermissionPolicy,
  call: PermissionCall,
  context: PermissionContext,
): PermissionDecision {
  const commandText = bashCommand(call);
  const parts = commandText === undefined ? undefined : splitShellCommand(commandText);
  // Deny and ask rules read every piece the command may run, worked out once for all rules.
  const candidates = commandText === undefined ? undefined : commandsRun(commandText, parts);
  const folded = { ...context, foldNames: true };
  // A command's words are read as bash may expand them: `r${X}m` and `/bin/r[m]` run rm.
  const anyMatch = (rule: PermissionRule) =>
    candidates === undefined
      ? ruleMatches(rule, call, folded)
      : ruleCoversTool(rule, call.tool) &&
        (rule.specifier === undefined ||
          candidates.some((candidate) => commandMayMatch(rule.specifier ?? '', candidate)));
  const denied = policy.deny.find(anyMatch);
  if (denied)
    return { behavior: 'deny', rule: denied.text, reason: `denied by the rule ${denied.text}` };
  const asked = policy.ask.find(anyMatch);
  if (asked)
    return { behavior: 'ask', rule: asked.text, reason: `the rule ${asked.text} asks first` };
  const allowedBy = allowingRule(policy.allow, call, context, commandText, parts);
  if (allowedBy) return { behavior: 'allow', rule: allowedBy, reason: `allowed by ${allowedBy}` };
  return modeDefault(policy.mode, call.tool);
}

/**
 * The rules (as written) that allow `call` on their own, ignoring modes and deny/ask lists; undefined
 * when none does. A Bash command is allowed only when every simple command in it is.
 *
 * @example
 * rulesAllow([parsePermissionRule('Bash(git log:*)')], { tool: 'bash', input: { command: 'git log' } }, ctx); // 'Bash(git log:*)'
 */
export function rulesAllow(
  rules: readonly PermissionRule[],
  call: PermissionCall,
  context: PermissionContext,
  identity = false,
): string | undefined {
  const commandText = bashCommand(call);
  return allowingRule(
    rules,
    call,
    context,
    commandText,
    commandText === undefined ? undefined : splitShellCommand(commandText),
    identity,
  );
}

/**
 * What deny and ask rules match a command against: the whole text and each part (or, without
 * parts or with a here-document, every loose piece), each as written and as the program it runs
 * reads it (`\rm`, `/bin/rm`, `command rm` are rm), with the commands those words run in turn.
 */
function commandsRun(commandText: string, parts: readonly string[] | undefined): string[] {
  const pieces = [
    commandText,
    ...(parts ?? []),
    // Without parts, or with a here-document, whose body may be a script piped to a shell
    // (`cat <<EOF | sh`): every line and piece of the text, quotes ignored.
    ...(!parts || commandText.includes('<<') ? looseParts(commandText) : []),
  ];
  const candidates = new Set<string>();
  for (const part of pieces) {
    const plain = plainCommand(part);
    candidates.add(part).add(plain);
    // What the words run once unquoted: `eval "ls; rm -rf ~"` and `sh -c 'cd /; rm -rf ~'` run rm
    // as a command of their own.
    for (const inner of looseParts(plain)) candidates.add(plainCommand(inner));
    // `find … -exec rm {} ;` runs rm on each file found, as `xargs rm` does.
    for (const found of plain.split(/\s-(?:exec|execdir|ok|okdir)\s+/).slice(1))
      candidates.add(plainCommand(found));
  }
  return [...candidates];
}

/** Every command-like piece of a command, substitutions opened up: for deny and ask checks only. */
const looseParts = (command: string) =>
  command
    .replace(/\$\(|<\(|>\(|[`()]/g, ';')
    .split(/&&|\|\||[;&|\n]/)
    .map((part) => part.trim())
    .filter(Boolean);

const bashCommand = (call: PermissionCall) =>
  call.tool === 'bash' && call.input && typeof call.input === 'object'
    ? String((call.input as { command?: unknown }).command ?? '')
    : undefined;

function allowingRule(
  allow: readonly PermissionRule[],
  call: PermissionCall,
  context: PermissionContext,
  commandText: string | undefined,
  parts: string[] | undefined,
  identity = false,
): string | undefined {
  const matches = (rule: PermissionRule, part?: string) =>
    ruleMatches(rule, call, context, part, identity);
  if (commandText === undefined) return allow.find((rule) => matches(rule))?.text;
  const whole = allow.find((rule) => rule.specifier === undefined && matches(rule));
  if (whole) return whole.text;
  if (!parts || parts.length === 0) return undefined;
  const used: string[] = [];
  for (const part of parts) {
    // A rule for a command does not grant writing files through it (`git log > README.md`),
    // unless the rule itself names the redirection.
    const writes = writesFiles(part);
    const rule = allow.find(
      (candidate) =>
        matches(candidate, part) && (!writes || writesFiles(candidate.specifier ?? '')),
    );
    if (!rule) return undefined;
    if (!used.includes(rule.text)) used.push(rule.text);
  }
  return used.join(', ');
}

function modeDefault(mode: PermissionMode, tool: string): PermissionDecision {
  if (mode === 'bypassPermissions') return { behavior: 'allow', reason: 'bypassPermissions mode' };
  if (READ_ONLY_TOOLS.has(tool)) return { behavior: 'allow', reason: `${tool} only reads` };
  if (mode === 'acceptEdits' && EDIT_TOOLS.has(tool))
    return { behavior: 'allow', reason: 'acceptEdits mode' };
  if (mode === 'dontAsk')
    return { behavior: 'deny', reason: `no allow rule matches this ${tool} call (dontAsk mode)` };
  return { behavior: 'ask', reason: `no rule allows this ${tool} call` };
}

/**
 * The rule an "always" answer adds for the rest of the session: a Bash command's first word (and
 * its subcommand, when the second word is one) as a prefix, `Edit` for file edits (Claude's
 * "allow all edits this session"), the domain for a fetch, the tool itself otherwise.
 *
 * @example
 * alwaysRule({ tool: 'bash', input: { command: 'npm test -- --watch' } }); // 'Bash(npm test:*)'
 */
export function alwaysRule(call: PermissionCall): string {
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (call.tool === 'bash') {
    const words = String(input.command ?? '')
      .trim()
      .split(/\s+/);
    const [first = '', second] = words;
    const prefix = second && /^[a-z][\w:.-]*$/i.test(second) ? `${first} ${second}` : first;
    return splitShellCommand(String(input.command ?? ''))?.length === 1
      ? `Bash(${prefix}:*)`
      : `Bash(${String(input.command ?? '')})`;
  }
  if (EDIT_TOOLS.has(call.tool)) return 'Edit';
  if (call.tool === 'web_fetch') {
    try {
      return `WebFetch(domain:${new URL(String(input.url)).hostname})`;
    } catch {
      return 'WebFetch';
    }
  }
  return call.tool;
}
