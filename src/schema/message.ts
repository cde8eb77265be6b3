import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** A chat message in a session's history; `agentName` records which agent answered. */
export const Message = lazySchema(() =>
  z.object({
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    timestamp: z.coerce.date().optional(),
    agentName: z.string().optional(),
  }),
);
export type Message = z.infer<typeof Message>;
