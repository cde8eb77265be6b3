import * as z from 'zod';
import { Query, SessionId } from './context.js';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './safe-text.js';
import { lazySchema } from './lazy-schema.js';

/** Body of `POST /chat` and the options of `cohort ask`. */
export const ChatRequest = lazySchema(() =>
  z.object({
    query: Query,
    sessionId: SessionId.optional(),
    selectedText: z
      .string()
      .max(10_000)
      .refine(isSafeText, `selected_text ${UNSAFE_TEXT_MESSAGE}`)
      .optional(),
    /** Skip routing and use this agent. */
    agent: z.string().optional(),
    /** How a multi-domain question's agents run, for this question (`routing.multiDomain` by default). */
    multiDomain: z.enum(['sequential', 'parallel']).optional(),
  }),
);
export type ChatRequest = z.infer<typeof ChatRequest>;
