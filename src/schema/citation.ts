import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** A numbered source reference: `[index]` in an answer points at this passage. */
export const Citation = lazySchema(() =>
  z.object({
    index: z.number().int().min(1),
    source: z.string().min(1),
    title: z.string(),
    section: z.string().optional(),
    relevanceScore: z.number().min(0).max(1),
    /** The published page of the passage, when a `sourceUrl` template is configured. */
    url: z.string().optional(),
    /** The cited passage itself, so a reader can open it. */
    text: z.string().optional(),
    chunkId: z.string().optional(),
  }),
);
export type Citation = z.infer<typeof Citation>;
