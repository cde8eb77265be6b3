import {
  APPROVE_CONFIG_COMMAND,
  approveProjectConfig,
  CONFIG_FILE,
  TRUST_PROJECT_CONFIG_ENV,
  type ProjectConfigReview,
} from '../../config/index.js';
import { CohortError } from '../../errors/index.js';
import { parseCommandArgs } from '../args.js';
import type { CliCommand } from '../command.js';
import { configFor } from '../open.js';

const usage = 'cohort config approve [--data-dir DIR]';

/**
 * `cohort config approve`: shows the guarded settings of this folder's `cohort.config.json`
 * (those that turn the sandbox off, let calls run without asking, start MCP servers, send keys to
 * an endpoint…) and records the user's approval of them for this folder, so they apply from the
 * next run. A change to any of them needs approval again.
 *
 * @example
 * await configCommand.run(['approve'], processIo());
 */
export const configCommand: CliCommand = {
  name: 'config',
  summary: `Approve the guarded settings of this folder's ${CONFIG_FILE} (sandbox, permissions, MCP servers, endpoints)`,
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { 'data-dir': { type: 'string' } },
      usage,
    );
    if (positionals.join(' ') !== 'approve')
      throw new CohortError(
        'invalid_input',
        `Unknown config command "${positionals.join(' ')}".\nUsage: ${usage}`,
      );
    let review: ProjectConfigReview | undefined;
    configFor(io, values, { onProjectConfigReview: (found) => void (review = found) });
    if (!review) {
      io.stdout(`No ${CONFIG_FILE} in ${io.cwd}: nothing to approve.\n`);
      return 0;
    }
    if (review.guarded.length === 0) {
      io.stdout(`${review.configFile} sets no guarded setting: it applies as it is.\n`);
      return 0;
    }
    io.stdout(`${review.configFile} sets:\n`);
    for (const setting of review.guarded)
      io.stdout(`  ${setting.path} = ${JSON.stringify(setting.value)} (${setting.why})\n`);
    if (review.trusted) {
      io.stdout(`${TRUST_PROJECT_CONFIG_ENV} is set: they apply without approval.\n`);
      return 0;
    }
    approveProjectConfig(review);
    io.stdout(
      `Approved them for ${review.project} (recorded in ${review.file}). A change to any of them needs \`${APPROVE_CONFIG_COMMAND}\` again.\n`,
    );
    return 0;
  },
};
