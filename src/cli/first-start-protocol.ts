import * as z from 'zod';
import { CohortConfig } from '../config/index.js';
import { CohortErrorCode } from '../errors/index.js';
import { lazySchema } from '../schema/lazy-schema.js';

/**
 * The messages between `cohort serve` and the child process that prepares a new data folder
 * (first-start.ts, first-start-child.ts), over Node's IPC channel. Each side checks what it
 * receives: a message that does not parse is a failure named as such, never acted on.
 */

/** What the parent sends, once: the config to prepare with and who gets the folder's lock. */
export const PrepareRequest = lazySchema(() =>
  z.object({
    type: z.literal('prepare'),
    config: CohortConfig,
    /** The parent, as the folder lock names it once the child hands the lock over. */
    holder: z.object({
      pid: z.number().int().positive(),
      host: z.string(),
      startedAt: z.number(),
      startTicks: z.number().optional(),
      command: z.string(),
    }),
  }),
);
export type PrepareRequest = z.infer<typeof PrepareRequest>;

/** What the child sends: ingestion progress, then either done (with the ingestion) or failed. */
export const PrepareReport = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('progress'),
      done: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
      file: z.string(),
    }),
    z.object({
      type: z.literal('done'),
      /** What the first-use ingestion did, when it ran. */
      ingested: z
        .object({ files: z.number().int().nonnegative(), chunks: z.number().int().nonnegative() })
        .optional(),
    }),
    z.object({
      type: z.literal('failed'),
      /** A code this version does not know is reported as `internal`. */
      code: CohortErrorCode.catch('internal'),
      message: z.string(),
      field: z.string().optional(),
      file: z.string().optional(),
    }),
  ]),
);
export type PrepareReport = z.infer<typeof PrepareReport>;
