import type { z } from 'zod';
import { countOf } from '../../telemetry/index.js';

/** Why the step cap ended a run, with the setting that raises it. */
export function stepCapMessage(maxSteps: number): string {
  return `Stopped after ${countOf(maxSteps, 'model step')} without a final answer: the model kept calling tools. Raise model.maxSteps (COHORT_MAX_STEPS) or ask a narrower question.`;
}

/** Why a budget ended a run. */
export function budgetMessage(kind: 'tokens' | 'turns', used: number, limit: number): string {
  return kind === 'tokens'
    ? `Stopped: the run used ${countOf(used, 'token')}, over its budget of ${limit}.`
    : `Stopped: the run used ${countOf(used, 'turn')}, its budget is ${limit}.`;
}

/** Why a run stopped at its time limit (`LoopBudget.maxMs`), and what raises it. */
export function timeLimitMessage(limitMs: number, setting: string | undefined): string {
  return `Stopped: the run reached its time limit of ${limitMs / 1000} s; what was running was stopped.${setting ? ` Ask for less at once, or raise ${setting}.` : ''}`;
}

/** The tool error the model sees when it calls a tool it may not use here. */
export function refusedToolMessage(name: string): string {
  return `tool ${name} is not allowed here`;
}

/** The tool error the model sees for a call past the per-reply limit: it did not run. */
export function tooManyToolCallsMessage(name: string, asked: number, max: number): string {
  return `tool ${name} was not run: the reply asked for ${asked} tool calls and at most ${max} run per reply; ask for the rest in the next reply`;
}

/** The tool error the model sees when it calls a tool that does not exist. */
export function unknownToolMessage(name: string, known: readonly string[]): string {
  return `tool ${name} does not exist; available tools: ${known.join(', ') || 'none'}`;
}

/** The tool error the model sees when its arguments are not valid JSON or fail the schema. */
export function invalidInputMessage(name: string, problem: string): string {
  return `invalid arguments for tool ${name}: ${problem}`;
}

/** The first issue of a zod error, as `path: message`. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
