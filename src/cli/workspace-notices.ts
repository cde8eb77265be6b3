import { unapprovedConfigMessage, type ProjectConfigReview } from '../config/index.js';
import { reviewWorkspaceSettings } from '../coding/index.js';
import type { CliIo } from './command.js';

/**
 * The settings files of a workspace the coding assistant works on (its `.claude/settings.json`
 * and `settings.local.json`, its skills' `allowed-tools`) whose guarded settings are not approved:
 * the assistant leaves them out until `cohort config approve`. `cohort code` asks about them on a
 * terminal or tells them; `cohort serve`, whose `/code` works on its folder, tells them at start.
 *
 * @example
 * for (const review of unapprovedWorkspaceSettings(io, '/repo')) tellUnapproved(io, review);
 */
export function unapprovedWorkspaceSettings(io: CliIo, workspace: string): ProjectConfigReview[] {
  return reviewWorkspaceSettings(workspace, {
    env: io.env,
    ...(io.env.HOME ? { home: io.env.HOME } : {}),
  }).filter((review) => !review.approved);
}

/** Says on stderr which settings of a file were left out, and how to approve them. */
export function tellUnapproved(io: CliIo, review: ProjectConfigReview): void {
  io.stderr(unapprovedConfigMessage(review));
}
