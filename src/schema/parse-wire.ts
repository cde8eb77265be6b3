import type { z } from 'zod';
import { CohortError } from '../errors/index.js';
import { findJsonProblem, MAX_JSON_DEPTH, UNSAFE_TEXT_MESSAGE } from './safe-text.js';
import { fromWire, wireKey } from './wire.js';

/**
 * Validates a wire (snake_case) JSON object with a camelCase `schema`, the way every request
 * boundary does (HTTP bodies, MCP tool arguments): the error is `invalid_input` naming the first
 * wrong field in wire form, so both interfaces report the same message for the same mistake.
 * `keys: 'as-is'` skips the snake_case → camelCase reading (schemas already in wire form). Input
 * nested deeper than {@link MAX_JSON_DEPTH}, or with a NUL character or an unpaired surrogate in
 * any string, is refused first.
 *
 * @example
 * parseWireInput(ChatRequest, { query: '', session_id: 'x' }); // throws "Please provide a question…"
 */
export function parseWireInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  options: {
    keys?: 'wire' | 'as-is';
    /**
     * The caller has already run `findJsonProblem` on `value` and refused it on a problem (the
     * HTTP body reader, which answers 400 for those): the walk is not repeated.
     */
    checked?: boolean;
  } = {},
): z.infer<S> {
  // Before any recursive walk (fromWire) and before text can reach the database.
  const problem = options.checked ? undefined : findJsonProblem(value);
  if (problem) {
    throw new CohortError(
      'invalid_input',
      problem.kind === 'too_deep'
        ? `The input is nested more than ${MAX_JSON_DEPTH} levels deep.`
        : `${problem.path || 'input'} ${UNSAFE_TEXT_MESSAGE}.`,
      problem.path ? { field: problem.path } : {},
    );
  }
  const result = schema.safeParse(options.keys === 'as-is' ? value : fromWire(value));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? wireKey(issue.path.join('.')) : undefined;
  const reason = issue?.message ?? 'invalid input';
  const message = field && !reason.includes(field) ? `${field}: ${reason}` : reason;
  throw new CohortError('invalid_input', message, {
    ...(field ? { field } : {}),
    cause: result.error,
  });
}
