import { z } from 'zod';

/** A chat message in a session's history; `agentName` records which agent answered. */
export const Message = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  timestamp: z.coerce.date().optional(),
  agentName: z.string().optional(),
});
export type Message = z.infer<typeof Message>;
