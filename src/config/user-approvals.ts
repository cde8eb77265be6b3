import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * Where a file of the user's approvals lives: `$XDG_CONFIG_HOME/<file>`, else
 * `~/.config/<file>` (the approved MCP servers, the approved project configurations).
 *
 * @example
 * userApprovalsPath(join('cohort', 'approved-mcp-servers.json'), { env }); // '/home/me/.config/cohort/…'
 */
export function userApprovalsPath(
  file: string,
  options: { env?: Env; home?: string } = {},
): string {
  const env = options.env ?? process.env;
  const configHome =
    env.XDG_CONFIG_HOME || join(options.home ?? (env.HOME || homedir()), '.config');
  return resolve(configHome, file);
}

/** True when the variable `name` says to trust without approval (`1`, `true` or `yes`). */
export function trustedByEnv(env: Env, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  return value === '1' || value === 'true' || value === 'yes';
}

/** Sorts object keys at every level, so a digest does not depend on how a file orders them. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

/** `sha256:<hex>` of `value` as canonical JSON: what an approval records and compares. */
export function approvalDigest(value: unknown): string {
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex')}`;
}

/**
 * Writes an approvals file whole, readable by the user alone, through a temporary file renamed
 * over it: a crash leaves the old approvals or the new ones, never half of either.
 */
export function writeApprovals(file: string, approvals: unknown): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(approvals, null, 2) + '\n', { mode: 0o600 });
  renameSync(temporary, file);
}
