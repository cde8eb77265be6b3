import type { z } from 'zod';
import { CohortError, isCohortError, type CohortErrorCode } from '../errors/index.js';

/** What a tool's `execute` is given besides its input. */
export interface ToolCallOptions {
  signal?: AbortSignal;
}

/**
 * A tool the model can call: a name, a description the model reads, a zod input schema and an
 * `execute` that returns a value (errors included, as {@link ToolFailure} values the model sees).
 *
 * @example
 * const echo: CohortTool<{ text: string }, { ok: true; text: string }> = {
 *   name: 'echo',
 *   description: 'Repeats the text.',
 *   inputSchema: z.object({ text: z.string() }),
 *   execute: async ({ text }) => ({ ok: true, text }),
 * };
 */
export interface CohortTool<Input = unknown, Output = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<Input>;
  execute(input: Input, options: ToolCallOptions): Promise<Output>;
}

/** A tool failure as the model sees it: a code and a reason it can act on. */
export interface ToolFailure {
  ok: false;
  code: CohortErrorCode;
  error: string;
}

/** A tool's result: its typed success fields, or a {@link ToolFailure}. */
export type ToolOutcome<T extends object> = ({ ok: true } & T) | ToolFailure;

/**
 * Turns anything thrown inside a tool into a {@link ToolFailure}; a CohortError keeps its code and
 * message, anything else becomes `internal`.
 *
 * @example
 * try { ... } catch (error) { return toolFailure(error); }
 */
export function toolFailure(error: unknown): ToolFailure {
  if (isCohortError(error)) return { ok: false, code: error.code, error: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, code: 'internal', error: message };
}

/**
 * A tool outcome's success, or its failure thrown as the CohortError it describes: the inverse of
 * {@link toolFailure}, for callers that are code rather than a model.
 *
 * @example
 * const { papers } = unwrapOutcome(await arxivSearch(query));
 */
export function unwrapOutcome<T extends { ok: true } | ToolFailure>(
  outcome: T,
): Exclude<T, ToolFailure> {
  if (isToolFailure(outcome)) throw new CohortError(outcome.code, outcome.error);
  return outcome as Exclude<T, ToolFailure>;
}

function isToolFailure(outcome: { ok: boolean }): outcome is ToolFailure {
  return !outcome.ok;
}
