import * as z from 'zod';
import { protectedEntryOf, SandboxSettings } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { createSandbox, diskLimitMessage, type Sandbox } from '../sandbox/index.js';
import { createGuardedLookup } from './network-guard.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import { DEFAULT_MAX_OUTPUT_CHARS, truncateText } from './truncate-text.js';
import type { Workspace } from './workspace.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Default limit on one command's run time. */
export const DEFAULT_BASH_TIMEOUT_SECONDS = 60;
/**
 * Largest file one command may write, in MB (RLIMIT_FSIZE, in the sandbox): a build's artefacts
 * fit, a command a model wrote cannot fill the disk with one file (`head -c 3G /dev/zero > f`).
 */
export const DEFAULT_BASH_FILE_MB = 1024;
/** Exit status of a shell whose command was killed by SIGXFSZ (signal 25) at the file-size limit. */
const FILE_SIZE_EXIT = 128 + 25;

const BashInput = lazySchema(() =>
  z.object({
    command: z.string().min(1).describe('Shell command to run in the workspace folder (bash -c).'),
  }),
);
type BashInput = z.infer<typeof BashInput>;
/** What `bash` returns: exit code (null when killed), captured output, and whether it timed out. */
export type BashResult = ToolOutcome<{
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}>;

/**
 * The reviewer's `bash` tool: runs a command in the workspace inside the bubblewrap sandbox
 * (`sandbox` settings: workspace writable, system read-only, private /tmp, own PID namespace, no
 * network unless hosts are allowed, denied paths hidden, a process limit, a file-size limit), with a scrubbed
 * environment, a timeout that kills the whole sandbox and truncated output. Background jobs end
 * with the command. Without bubblewrap each call is refused with how to install it, unless the
 * user opted out (`sandbox.enabled: false`).
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
    sandbox?: SandboxSettings;
    /** Home folder for `~/…` deny entries (tests). */
    home?: string;
    /** Largest file a command may write, in MB (default {@link DEFAULT_BASH_FILE_MB}). */
    maxFileMb?: number;
  } = {},
): CohortTool<BashInput, BashResult> {
  const timeoutMs = (options.timeoutSeconds ?? DEFAULT_BASH_TIMEOUT_SECONDS) * 1000;
  const fileMb = options.maxFileMb ?? DEFAULT_BASH_FILE_MB;
  const maxChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const settings = options.sandbox ?? SandboxSettings.parse({});
  let sandbox: Sandbox | undefined;
  const network = settings.allowedHosts.length
    ? `network only to ${settings.allowedHosts.join(', ')} (through a proxy)`
    : 'no network';
  return {
    name: 'bash',
    description: settings.enabled
      ? `Run a shell command in the workspace (build, test, lint) inside a sandbox: only the workspace is writable, ${network}, no credentials. Times out after ${timeoutMs / 1000}s; background jobs end with the command; output is truncated.`
      : `Run a shell command in the workspace (build, test, lint). Times out after ${timeoutMs / 1000}s; output is truncated; no network credentials are available.`,
    inputSchema: BashInput,
    async execute({ command }, { signal }) {
      try {
        sandbox ??= createSandbox({
          root: workspace.root,
          settings,
          ...(options.parentEnv ? { parentEnv: options.parentEnv } : {}),
          ...(options.home ? { home: options.home } : {}),
          ...(settings.allowPrivateAddresses
            ? {}
            : { connectLookup: createGuardedLookup({ setting: 'sandbox.allowPrivateAddresses' }) }),
        });
        const run = await sandbox.run({
          argv: ['/bin/bash', '-c', command],
          timeoutMs,
          keepChars: maxChars * 2,
          limits: { fileMb },
          ...(signal ? { signal } : {}),
        });
        if (run.aborted) throw new CohortError('aborted', 'The command was cancelled.');
        if (run.spawnError)
          throw new CohortError('internal', `Could not run the command: ${run.spawnError}`);
        const err = truncateText(run.stderr, maxChars).text + quarantineNote(run.quarantined);
        return {
          ok: true,
          exitCode: run.exitCode,
          stdout: truncateText(run.stdout, maxChars).text,
          stderr: run.timedOut
            ? `${err}\n[killed: the command ran longer than ${timeoutMs / 1000}s]`
            : run.diskExceeded
              ? `${err}\n${diskLimitMessage(run.diskExceeded, 'the command', settings)}`
              : run.memoryExceeded
                ? `${err}\n[killed: the command used more than sandbox.maxMemoryMb (${settings.maxMemoryMb} MB) of memory]`
                : run.exitCode === FILE_SIZE_EXIT && sandbox.kind === 'bwrap'
                  ? `${err}\n[a file reached the ${fileMb} MB limit of one file]`
                  : err,
          timedOut: run.timedOut,
        };
      } catch (error) {
        return toolFailure(error);
      }
    },
  };
}

/**
 * What the model reads when its command created protected entries in subfolders, which the
 * sandbox moved aside: where each went and why, so it neither retries nor thinks the file exists.
 */
function quarantineNote(moved: readonly { path: string; movedTo: string }[] = []): string {
  return moved
    .map(({ path, movedTo }) => {
      const why = protectedEntryOf(path)?.why ?? 'cohort and git trust it';
      return `\n[cohort moved ${path} to ${movedTo}: commands do not create this name (${why}). Ask the user to make it if it is meant to be there.]`;
    })
    .join('');
}
