import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** The book assistant's agent domains (data-model spec, "Domain Enumeration"). `book` is the fallback. */
export const AgentDomain = lazySchema(() =>
  z.enum(['glossary', 'hardware', 'module_info', 'capstone', 'book']),
);
export type AgentDomain = z.infer<typeof AgentDomain>;

/** Domain tags assigned to chunks at ingestion; `general` is content that belongs to no specialist. */
export const ContentDomain = lazySchema(() =>
  z.enum(['glossary', 'hardware', 'module_info', 'capstone', 'general']),
);
export type ContentDomain = z.infer<typeof ContentDomain>;

/** Model tier an agent runs on (subagents-vs-skills spec: binary fast/full choice). */
export const ModelTier = lazySchema(() => z.enum(['fast', 'full']));
export type ModelTier = z.infer<typeof ModelTier>;
