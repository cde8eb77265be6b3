import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type Picomatch from 'picomatch';
import { PATH_TOOLS, ruleCoversTool, type PermissionRule } from './permission-rule.js';

/** A tool call as the rules see it: the cohort tool name and its (validated) input. */
export interface PermissionCall {
  tool: string;
  input: unknown;
}

/** Where relative paths in rules and calls are anchored. */
export interface PermissionContext {
  /** The workspace (project root): `/path` and `path` rules are relative to it. */
  workspace: string;
  /** The home folder for `~/` rules. */
  home?: string;
  /**
   * Whether path rules match regardless of letter case and Unicode normalisation (NFC): deny and
   * ask rules do (see {@link pathMatches}); allow rules match names as written.
   */
  foldNames?: boolean;
}

const require = createRequire(import.meta.url);
/**
 * picomatch, required with the first path rule matched: `import('cohort')` loads the permission
 * rules with the coding tools but matches none, and picomatch (a CommonJS package) took Node's
 * CommonJS loader with it.
 */
const picomatch = (): typeof Picomatch => require('picomatch') as typeof Picomatch;

const field = (input: unknown, name: string): string | undefined => {
  if (input === null || typeof input !== 'object') return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * True when one simple command matches a Bash specifier: `prefix:*` is a prefix on a word
 * boundary (`npm test:*` matches `npm test` and `npm test -- --watch`, not `npm tester`), a `*`
 * elsewhere matches any text (a trailing ` *` may also match nothing), anything else is exact.
 *
 * @example
 * commandMatches('git log:*', 'git log --oneline'); // true
 */
export function commandMatches(specifier: string, command: string): boolean {
  const text = command.trim().replace(/\s+/g, ' ');
  if (specifier.endsWith(':*')) {
    const prefix = specifier.slice(0, -2).trim().replace(/\s+/g, ' ');
    return text === prefix || text.startsWith(`${prefix} `);
  }
  const wanted = specifier.trim().replace(/\s+/g, ' ');
  if (!wanted.includes('*')) return text === wanted;
  // A trailing ` *` may also match nothing: `ls *` matches `ls`.
  return (
    wildcardMatches(wanted, text) ||
    (wanted.endsWith(' *') && wildcardMatches(wanted.slice(0, -2), text))
  );
}

/**
 * True when `text` is `pattern` with each `*` standing for any text. Greedy with one backtrack
 * point (the last `*`), so it takes at most length × length steps: the command is the model's
 * (hostile), and the regular expression this replaced (`^a.*a.*a.*…$`) backtracked for minutes
 * on a rule with several `*` and a long command.
 */
function wildcardMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p += 1;
      t += 1;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

/** The absolute pattern of a path specifier: `//abs`, `~/home`, `/project-root`, `relative`. */
function absolutePattern(specifier: string, context: PermissionContext): string {
  if (specifier.startsWith('//')) return specifier.slice(1);
  if (specifier.startsWith('~/')) return join(context.home ?? homedir(), specifier.slice(2));
  if (specifier.startsWith('/')) return join(context.workspace, specifier.slice(1));
  // A bare name without a slash matches at any depth, as in .gitignore (`.env`, `*.pem`).
  if (!specifier.replace(/^\.\//, '').includes('/'))
    return join(context.workspace, '**', specifier);
  return join(context.workspace, specifier.replace(/^\.\//, ''));
}

/**
 * True when `path` (relative to the workspace, or absolute) matches a path specifier; a pattern
 * naming a folder covers everything under it.
 *
 * @example
 * pathMatches('src/**', 'src/a/b.ts', { workspace: '/repo' }); // true
 */
export function pathMatches(specifier: string, path: string, context: PermissionContext): boolean {
  // Folded for deny and ask rules: on a file system that ignores letter case or normalisation
  // (macOS, Windows, a case-folding ext4 folder), `SECRET/x` and `secret/x` (or `é` as one code
  // point and as e + U+0301) open one file, so `Read(secret/**)` must refuse both. On a
  // case-sensitive one they are two files, and refusing the other too is the safe mistake.
  const fold = (text: string) => (context.foldNames ? text.normalize('NFC').toLowerCase() : text);
  const pattern = fold(absolutePattern(specifier, context));
  const target = fold(isAbsolute(path) ? resolve(path) : resolve(context.workspace, path));
  const options = { dot: true };
  return (
    picomatch()(pattern, options)(target) ||
    picomatch()(`${pattern.replace(/\/$/, '')}/**`, options)(target) ||
    (pattern.includes('/**/') &&
      basename(pattern) === basename(target) &&
      !/[*?[]/.test(basename(pattern)))
  );
}

/** True when `host` is `domain` or, for `*.domain`, one of its subdomains. */
function domainMatches(pattern: string, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const wanted = pattern.toLowerCase();
  if (wanted.startsWith('*.')) return name.endsWith(wanted.slice(1));
  return name === wanted;
}

/**
 * True when `rule` matches one call (for Bash: one simple command of it; the caller splits
 * compound commands). A rule without a specifier matches every use of its tools.
 *
 * @example
 * ruleMatches(parsePermissionRule('WebFetch(domain:example.org)'), { tool: 'web_fetch', input: { url: 'https://example.org/x' } }, ctx); // true
 */
export function ruleMatches(
  rule: PermissionRule,
  call: PermissionCall,
  context: PermissionContext,
  command?: string,
  identity = false,
): boolean {
  if (!ruleCoversTool(rule, call.tool, identity)) return false;
  const specifier = rule.specifier;
  if (specifier === undefined) return true;
  if (call.tool === 'bash')
    return commandMatches(specifier, command ?? field(call.input, 'command') ?? '');
  if (PATH_TOOLS.has(call.tool))
    return pathMatches(specifier, field(call.input, 'path') ?? '.', context);
  if (call.tool === 'web_fetch') {
    const url = field(call.input, 'url') ?? '';
    if (specifier.startsWith('domain:')) {
      try {
        return domainMatches(specifier.slice('domain:'.length).trim(), new URL(url).hostname);
      } catch {
        return false;
      }
    }
    return commandMatches(specifier, url);
  }
  if (call.tool === 'web_search')
    return commandMatches(specifier, field(call.input, 'query') ?? '');
  if (call.tool === 'task') return field(call.input, 'type') === specifier;
  return false;
}
