import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod';
import { CohortError } from '../errors/index.js';
import { lazySchema } from '../schema/lazy-schema.js';
import { readFoundFile } from './found-file.js';
import { parseJsonFile } from './json-file.js';

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

/**
 * `{ version: 1, projects: { "<real path>": { "<name>": "sha256:<hex>" } } }`: per folder, the
 * digest of each approved thing (an MCP server by its name, a settings file by its path).
 */
const Approvals = lazySchema(() =>
  z.object({
    version: z.literal(1),
    projects: z.record(
      z.string(),
      z.record(z.string(), z.string().regex(/^sha256:[0-9a-f]{64}$/, 'a "sha256:<hex>" digest')),
    ),
  }),
);
export type Approvals = z.infer<typeof Approvals>;

/** What an approvals file records, for the message that names a malformed one. */
export interface ApprovalsKind {
  /** `approved MCP servers`. */
  what: string;
  /** What each folder's entries are keyed by: `server`, `file`. */
  key: string;
  /** The command that approves them again: `cohort mcp approve`. */
  command: string;
}

/**
 * Reads an approvals file: absent is no approvals; malformed is an `invalid_input` naming the
 * file, where it is wrong, the shape expected and the command that approves again.
 *
 * @example
 * readApprovals(file, { what: 'approved MCP servers', key: 'server', command: 'cohort mcp approve' });
 */
export function readApprovals(file: string, kind: ApprovalsKind): Approvals {
  if (!existsSync(file)) return { version: 1, projects: {} };
  const text = readFoundFile(file, `file of ${kind.what}`);
  const result = Approvals.safeParse(parseJsonFile(file, text));
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? ` at "${issue.path.join('.')}"` : '';
    throw new CohortError(
      'invalid_input',
      `${file}: not a record of ${kind.what}${where} (${issue?.message ?? 'invalid'}): expected { "version": 1, "projects": { "<folder>": { "<${kind.key}>": "sha256:…" } } }. Fix it or delete it and approve again with \`${kind.command}\`.`,
      { file },
    );
  }
  return result.data;
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

/** Longest wait for another process's hold of an approvals file before giving up. */
export const APPROVALS_LOCK_WAIT_MS = 10_000;
/** A hold older than this is a crashed process's: an update reads and writes in milliseconds. */
const STALE_LOCK_MS = 30_000;

/** Whether the process that wrote `lock` is gone (or wrote no process id and is long gone). */
function staleLock(lock: string): boolean {
  let text: string;
  let age: number;
  try {
    text = readFileSync(lock, 'utf8');
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return false; // released meanwhile: the next try takes it
  }
  if (age > STALE_LOCK_MS) return true;
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) return false; // being written: wait
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Runs `update` (read an approvals file, change it, {@link writeApprovals}) holding
 * `<file>.lock`, created exclusively. Two cohort processes approving at once (two folders' `cohort
 * config approve`, a `cohort code` asking y/N beside `cohort mcp approve`) otherwise each wrote
 * back the file as they had read it, and one approval they both reported was lost. A hold left by
 * a process that died is taken over; one still held after `waitMs` is an error naming the lock.
 *
 * @example
 * withApprovalsLock(file, () => writeApprovals(file, { ...readApprovals(file), more }));
 */
export function withApprovalsLock<T>(
  file: string,
  update: () => T,
  waitMs = APPROVALS_LOCK_WAIT_MS,
): T {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const lock = `${file}.lock`;
  const deadline = Date.now() + waitMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      try {
        return update();
      } finally {
        unlinkSync(lock);
      }
    }
    if (staleLock(lock)) {
      try {
        unlinkSync(lock);
      } catch {
        // another process took it over first
      }
      continue;
    }
    if (Date.now() >= deadline) {
      throw new CohortError(
        'timeout',
        `${file} is being written by another cohort process (it holds ${lock}) and was not released within ${waitMs / 1000} s. Try again; if no cohort is running, delete ${lock}.`,
        { file },
      );
    }
    Atomics.wait(pause, 0, 0, 10 + Math.random() * 20);
  }
}
