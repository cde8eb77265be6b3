import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** A passage retrieved from the knowledge base; `score` is normalised to 0..1. */
export const RetrievedChunk = lazySchema(() =>
  z.object({
    id: z.string().optional(),
    text: z.string().trim().min(1, 'text must not be empty'),
    source: z.string().min(1),
    title: z.string(),
    section: z.string().optional(),
    score: z.number().min(0).max(1),
    domain: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).default({}),
  }),
);
export type RetrievedChunk = z.infer<typeof RetrievedChunk>;
export type RetrievedChunkInput = z.input<typeof RetrievedChunk>;

/** A document as stored: one source file of the knowledge base. */
export const DocumentRecord = lazySchema(() =>
  z.object({
    source: z.string().min(1),
    title: z.string(),
    hash: z.string().min(1),
    domain: z.string().min(1),
  }),
);
export type DocumentRecord = z.infer<typeof DocumentRecord>;

/** A chunk as stored: a passage of a document under its heading path. */
export const ChunkRecord = lazySchema(() =>
  z.object({
    id: z.string().min(1),
    source: z.string().min(1),
    ord: z.number().int().min(0),
    title: z.string(),
    headingPath: z.array(z.string()),
    domain: z.string().min(1),
    text: z.string().min(1),
    hash: z.string().min(1),
    metadata: z.record(z.string(), z.unknown()).default({}),
  }),
);
export type ChunkRecord = z.infer<typeof ChunkRecord>;
