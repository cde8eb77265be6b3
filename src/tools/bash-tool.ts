import { spawn } from 'node:child_process';
import { z } from 'zod';
import { CohortError } from '../errors/index.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import { DEFAULT_MAX_OUTPUT_CHARS, truncateText } from './truncate-text.js';
import type { Workspace } from './workspace.js';

/** Default limit on one command's run time. */
export const DEFAULT_BASH_TIMEOUT_SECONDS = 60;
/** PATH used when the parent process has none. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

const BashInput = z.object({
  command: z.string().min(1).describe('Shell command to run in the workspace folder (bash -c).'),
});
type BashInput = z.infer<typeof BashInput>;
/** What `bash` returns: exit code (null when killed), captured output, and whether it timed out. */
export type BashResult = ToolOutcome<{
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}>;

/**
 * The environment a command sees: PATH, HOME (the workspace) and LANG only, so API keys and
 * tokens of the parent process never reach commands the model writes.
 */
export function scrubbedEnv(
  root: string,
  parent: Record<string, string | undefined> = process.env,
): Record<string, string> {
  return { PATH: parent.PATH ?? FALLBACK_PATH, HOME: root, LANG: parent.LANG ?? 'C.UTF-8' };
}

/**
 * The reviewer's `bash` tool: runs a command in the workspace with a timeout that kills the whole
 * process group, a scrubbed environment and truncated output.
 *
 * @example
 * const tool = createBashTool(createWorkspace('.'), { timeoutSeconds: 120 });
 * await tool.execute({ command: 'npm test' }, {});
 */
export function createBashTool(
  workspace: Workspace,
  options: {
    timeoutSeconds?: number;
    maxOutputChars?: number;
    parentEnv?: Record<string, string | undefined>;
  } = {},
): CohortTool<BashInput, BashResult> {
  const timeoutMs = (options.timeoutSeconds ?? DEFAULT_BASH_TIMEOUT_SECONDS) * 1000;
  const maxChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  return {
    name: 'bash',
    description: `Run a shell command in the workspace (build, test, lint). Times out after ${timeoutMs / 1000}s; output is truncated; no network credentials are available.`,
    inputSchema: BashInput,
    execute({ command }, { signal }) {
      return new Promise<BashResult>((resolve) => {
        if (signal?.aborted) {
          resolve(
            toolFailure(new CohortError('aborted', 'The command was cancelled before it started.')),
          );
          return;
        }
        // detached: the command leads its own process group, so a kill reaches its children too.
        const child = spawn('/bin/bash', ['-c', command], {
          cwd: workspace.root,
          env: scrubbedEnv(workspace.root, options.parentEnv),
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        // Keep a bounded buffer: a command printing gigabytes must not exhaust memory.
        const keep = maxChars * 2;
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => {
          if (stdout.length < keep) stdout += chunk.toString('utf8');
        });
        child.stderr.on('data', (chunk: Buffer) => {
          if (stderr.length < keep) stderr += chunk.toString('utf8');
        });
        let timedOut = false;
        let settled = false;
        const killGroup = () => {
          try {
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        };
        const finish = (exitCode: number | null) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          if (signal?.aborted) {
            resolve(toolFailure(new CohortError('aborted', 'The command was cancelled.')));
            return;
          }
          const out = truncateText(stdout, maxChars).text;
          const err = truncateText(stderr, maxChars).text;
          resolve({
            ok: true,
            exitCode,
            stdout: out,
            stderr: timedOut
              ? `${err}\n[killed: the command ran longer than ${timeoutMs / 1000}s]`
              : err,
            timedOut,
          });
        };
        const timer = setTimeout(() => {
          timedOut = true;
          killGroup();
          // A grandchild that escaped the group may hold the pipes open; do not wait for it.
          setTimeout(() => finish(null), 1000).unref();
        }, timeoutMs);
        const onAbort = () => {
          killGroup();
          finish(null);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        child.on('error', (error) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(
            toolFailure(new CohortError('internal', `Could not run the command: ${error.message}`)),
          );
        });
        child.on('close', (code) => finish(timedOut ? null : code));
      });
    },
  };
}
