import * as z from 'zod';
import { lazySchema } from '../schema/lazy-schema.js';

/**
 * What happens to a tool call no rule matches (Claude Code's `defaultMode`): `default` asks before
 * commands, edits and fetches; `acceptEdits` also lets file edits run; `bypassPermissions` runs
 * everything that is not denied; `dontAsk` refuses whatever is not allowed.
 */
export const PermissionMode = lazySchema(() =>
  z.enum(['default', 'acceptEdits', 'bypassPermissions', 'dontAsk']),
);
export type PermissionMode = z.infer<typeof PermissionMode>;

/**
 * The `permissions` section (the shape of Claude Code's `.claude/settings.json`): rule lists such
 * as `Bash(npm test:*)`, `Read(src/**)`, `Edit`, `WebFetch(domain:example.org)`.
 */
export const PermissionSettings = lazySchema(() =>
  z
    .object({
      allow: z.array(z.string().min(1)).default([]),
      ask: z.array(z.string().min(1)).default([]),
      deny: z.array(z.string().min(1)).default([]),
      defaultMode: PermissionMode.default('default'),
    })
    .prefault({}),
);
export type PermissionSettings = z.infer<typeof PermissionSettings>;
