import type { LanguageModel } from 'ai';
import * as z from 'zod';
import { MAX_QUERY_LENGTH, type ResearchTask } from '../schema/index.js';
import { invokeLlmWithRetry } from './invoke-llm-with-retry.js';
import type { TokenCount } from './research-events.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Words each side of ` and ` or a comma must have for the split to mark two clauses. */
const MIN_CLAUSE_WORDS = 3;

/** The lead model's structured output: the research tasks. */
export const ResearchPlan = lazySchema(() =>
  z.object({
    tasks: z
      .array(
        z.object({
          description: z
            .string()
            .trim()
            .min(1, 'a task description must not be empty')
            // A task is a researcher's question: no longer than a question may be.
            .max(
              MAX_QUERY_LENGTH,
              `a task description must be at most ${MAX_QUERY_LENGTH} characters`,
            ),
        }),
      )
      .min(1, 'give at least one task'),
  }),
);
export type ResearchPlan = z.infer<typeof ResearchPlan>;

/** The lead model's instructions. */
export const LEAD_SYSTEM_PROMPT = `You are the lead of a research team. Split the user's question into independent research tasks, one per distinct aspect, each answerable on its own by a researcher who sees only that task.
Write each task as a self-contained instruction that names its subject (no "it" or "they").
Reply with one JSON object: {"tasks": [{"description": "..."}]}.`;

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

function splitWhereClauses(parts: string[], separator: RegExp, joiner: string): string[] {
  return parts.flatMap((part) => {
    const pieces = part.split(separator);
    const out: string[] = [];
    for (const piece of pieces) {
      const last = out[out.length - 1];
      // Join a short piece back: "ROS 2 and Gazebo" is one subject, not two clauses.
      if (
        last !== undefined &&
        (words(piece) < MIN_CLAUSE_WORDS || words(last) < MIN_CLAUSE_WORDS)
      ) {
        out[out.length - 1] = `${last}${joiner}${piece}`;
      } else out.push(piece);
    }
    return out;
  });
}

/**
 * Tasks from a question's clauses, for runs without a model: split on `;` and `?`, then on
 * ` and ` and on commas where both sides are clauses (3+ words). Beyond `maxTasks` the rest is
 * folded into the last task.
 *
 * @example
 * splitQuestion('What is ROS 2 and how does Gazebo simulate sensors?', 5);
 * // ['What is ROS 2', 'how does Gazebo simulate sensors']
 */
export function splitQuestion(question: string, maxTasks: number): string[] {
  const first = question
    .split(/[;?]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const clauses = splitWhereClauses(
    splitWhereClauses(first, /\s+and\s+/i, ' and '),
    /\s*,\s*/,
    ', ',
  )
    .map((clause) => clause.replace(/^[\s,.:-]+|[\s,.:-]+$/g, '').trim())
    .filter((clause) => clause.length > 0);
  const unique = [...new Set(clauses)];
  if (unique.length === 0) return [question.trim()];
  if (unique.length <= maxTasks) return unique;
  return [...unique.slice(0, maxTasks - 1), unique.slice(maxTasks - 1).join('; ')];
}

/** Task records with stable ids (`task-1`…): the ids are the tasks' namespaces and resume keys. */
export function toTasks(descriptions: readonly string[]): ResearchTask[] {
  return descriptions.map((description, i) => ({ id: `task-${i + 1}`, description }));
}

/** Options of {@link planTasks}. */
export interface PlanTasksOptions {
  model?: LanguageModel;
  maxTasks: number;
  timeoutMs: number;
  maxRetries: number;
  signal: AbortSignal;
  onUsage?: (tokens: TokenCount) => void;
}

/**
 * The lead step: with a model, asks it for tasks (structured output, validated and retried);
 * without one, or when it fails, splits the question into its clauses. Says which planner ran.
 *
 * @example
 * const plan = await planTasks('Compare MPC and RL for humanoid walking', { model, maxTasks: 4, timeoutMs: 120_000, maxRetries: 2, signal });
 */
export async function planTasks(
  question: string,
  options: PlanTasksOptions,
): Promise<{ tasks: ResearchTask[]; planner: 'model' | 'clauses'; reason?: string }> {
  const clauses = () => toTasks(splitQuestion(question, options.maxTasks));
  if (!options.model)
    return { tasks: clauses(), planner: 'clauses', reason: 'no model is configured' };
  const planned = await invokeLlmWithRetry({
    model: options.model,
    system: LEAD_SYSTEM_PROMPT,
    messages: [
      { role: 'user', content: `Question: ${question}\nUse at most ${options.maxTasks} tasks.` },
    ],
    schema: ResearchPlan,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    signal: options.signal,
    ...(options.onUsage ? { onUsage: options.onUsage } : {}),
  });
  if (!planned.ok)
    return {
      tasks: clauses(),
      planner: 'clauses',
      reason: `the lead model failed: ${planned.error}`,
    };
  // "ROS 2 topics" and "ros 2  topics" are one task: the first spelling is kept.
  const byKey = new Map<string, string>();
  for (const { description } of planned.value.tasks) {
    const key = description.toLowerCase().replace(/\s+/g, ' ');
    if (!byKey.has(key)) byKey.set(key, description);
  }
  const descriptions = [...byKey.values()].slice(0, options.maxTasks);
  return { tasks: toTasks(descriptions), planner: 'model' };
}
