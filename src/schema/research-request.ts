import * as z from 'zod';
import { Query } from './context.js';
import { ResearchResult } from './research.js';
import { lazySchema } from './lazy-schema.js';

/**
 * Most tasks one research run may plan, on every surface (`cohort research --tasks`, `POST /research`,
 * the MCP tool, `research.maxTasks`): the page's cards stay readable, the run bounded.
 */
export const MAX_RESEARCH_TASKS = 8;

const tasksMessage = `tasks must be a whole number from 1 to ${MAX_RESEARCH_TASKS}`;

/**
 * A research request (`POST /research`, the MCP `research` tool): a question, or the id of a
 * stored run to continue (`resume`), and at most how many tasks to plan.
 */
export const ResearchBody = lazySchema(() =>
  z
    .object({
      question: Query.optional(),
      tasks: z
        .number({ error: tasksMessage })
        .int(tasksMessage)
        .min(1, tasksMessage)
        .max(MAX_RESEARCH_TASKS, tasksMessage)
        .optional(),
      resume: z
        .string({ error: 'resume must be the run id printed when the run started' })
        .trim()
        .min(1, 'resume must be the run id printed when the run started')
        .optional(),
    })
    .refine((body) => body.question !== undefined || body.resume !== undefined, {
      path: ['question'],
      message: 'question is required: send the question to research, or resume with a run id.',
    }),
);
export type ResearchBody = z.infer<typeof ResearchBody>;

/** Answer of `POST /research` and data of the stream's `done` event. */
export const ResearchResponse = lazySchema(() =>
  ResearchResult.pick({
    runId: true,
    question: true,
    tasks: true,
    findings: true,
    sources: true,
    report: true,
    mode: true,
  }),
);
export type ResearchResponse = z.infer<typeof ResearchResponse>;

/**
 * The API answer for a finished run (the fields `cohort research --json` prints, plus `mode`).
 *
 * @example
 * c.json(toWire(researchResponse(result)));
 */
export function researchResponse(result: ResearchResult): ResearchResponse {
  const { runId, question, tasks, findings, sources, report, mode } = result;
  return { runId, question, tasks, findings, sources, report, mode };
}
