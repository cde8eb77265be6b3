import {
  APPROVE_CONFIG_COMMAND,
  approveProjectConfig,
  CONFIG_FILE,
  TRUST_PROJECT_CONFIG_ENV,
  type ProjectConfigReview,
} from '../../config/index.js';
import { resolve } from 'node:path';
import { CLAUDE_SETTINGS_FILES, reviewWorkspaceSettings } from '../../coding/index.js';
import { CohortError } from '../../errors/index.js';
import { createWorkspace } from '../../tools/index.js';
import { parseCommandArgs, stringFlag } from '../args.js';
import type { CliCommand } from '../command.js';
import { configFor } from '../open.js';

const usage = 'cohort config approve [--workspace DIR] [--data-dir DIR]';

/**
 * `cohort config approve`: shows the guarded settings of this folder's `cohort.config.json`
 * (those that turn the sandbox off, let calls run without asking, start MCP servers, send keys to
 * an endpoint…), of the workspace's `.claude/settings.json` and `settings.local.json` (allow
 * rules, a mode that runs calls without asking) and of its skills (`allowed-tools`), and records the user's approval of them for the
 * folder, so they apply from the next run. A change to any of them needs approval again.
 *
 * @example
 * await configCommand.run(['approve'], processIo());
 */
export const configCommand: CliCommand = {
  name: 'config',
  summary: `Approve the guarded settings of this folder's ${CONFIG_FILE}, .claude settings and skills (sandbox, permissions, MCP servers, endpoints)`,
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { 'data-dir': { type: 'string' }, workspace: { type: 'string' } },
      usage,
    );
    if (positionals.join(' ') !== 'approve')
      throw new CohortError(
        'invalid_input',
        `Unknown config command "${positionals.join(' ')}".\nUsage: ${usage}`,
      );
    // A --workspace that names no folder (a typo) is an error before anything is approved: its
    // settings would otherwise read as "nothing to approve".
    const workspace = createWorkspace(resolve(io.cwd, stringFlag(values, 'workspace') ?? '.')).root;
    const reviews: ProjectConfigReview[] = [];
    configFor(io, values, { onProjectConfigReview: (found) => void reviews.push(found) });
    reviews.push(
      ...reviewWorkspaceSettings(workspace, {
        env: io.env,
        ...(io.env.HOME ? { home: io.env.HOME } : {}),
      }),
    );
    const guarded = reviews.filter((review) => review.guarded.length > 0);
    if (guarded.length === 0) {
      io.stdout(
        `No guarded setting in ${CONFIG_FILE} here, nor in ${workspace}'s ${CLAUDE_SETTINGS_FILES.join(' and ')} or its skills' allowed-tools: nothing to approve.\n`,
      );
      return 0;
    }
    for (const review of guarded) {
      io.stdout(`${review.configFile} sets:\n`);
      for (const setting of review.guarded)
        io.stdout(`  ${setting.path} = ${JSON.stringify(setting.value)} (${setting.why})\n`);
      if (review.trusted) {
        io.stdout(`${TRUST_PROJECT_CONFIG_ENV} is set: they apply without approval.\n`);
        continue;
      }
      approveProjectConfig(review);
      io.stdout(
        `Approved them for ${review.project} (recorded in ${review.file}). A change to any of them needs \`${APPROVE_CONFIG_COMMAND}\` again.\n`,
      );
    }
    return 0;
  },
};
