import * as z from 'zod';
import { CohortError } from '../errors/index.js';
import { findJsonProblem, MAX_JSON_DEPTH, unsafeTextMessage } from './safe-text.js';
import { issueMessage, withField } from './issue-message.js';
import { fromWire, wireKey } from './wire.js';

/**
 * Validates a wire (snake_case) JSON object with a camelCase `schema`, the way every request
 * boundary does (HTTP bodies, MCP tool arguments): the error is `invalid_input` naming the first
 * wrong field in wire form, so both interfaces report the same message for the same mistake.
 * `keys: 'as-is'` skips the snake_case → camelCase reading (schemas already in wire form). Input
 * nested deeper than {@link MAX_JSON_DEPTH}, or with a NUL character or an unpaired surrogate in
 * any string, is refused first; then a top-level key the schema does not know (a plain
 * `z.object`; a `z.looseObject` takes any), so a misspelt field (`message` for `query`,
 * `sesion_id`) is named instead of being dropped or reported as a missing one. A check with no
 * message of its own (a size limit, a type) is told by {@link issueMessage}, naming the field.
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
        : unsafeTextMessage(problem),
      problem.path ? { field: problem.path } : {},
    );
  }
  const unknown = unknownKey(schema, value, options.keys ?? 'wire');
  if (unknown) {
    throw new CohortError(
      'invalid_input',
      `Unknown field "${unknown.key}": this takes ${unknown.known.join(', ')}.`,
      { field: unknown.key },
    );
  }
  const result = schema.safeParse(options.keys === 'as-is' ? value : fromWire(value), {
    error: (issue) => issueMessage(issue, fieldName(issue.path ?? [])),
  });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? fieldName(issue.path) : undefined;
  const message = withField(field, issue?.message ?? 'invalid input');
  throw new CohortError('invalid_input', message, {
    ...(field ? { field } : {}),
    cause: result.error,
  });
}

/** A field's path as the client wrote it: `selectedText` → `selected_text`, `messages.0.role`. */
const fieldName = (path: readonly PropertyKey[]) => wireKey(path.map(String).join('.'));

/** The keys a plain object schema takes (through a pipe), or undefined when it takes any. */
function knownKeys(schema: z.ZodType): string[] | undefined {
  if (schema instanceof z.ZodPipe) return knownKeys(schema.in as z.ZodType);
  if (!(schema instanceof z.ZodObject)) return undefined;
  // A `looseObject` (catchall unknown) takes extra keys; a `strictObject` reports them itself.
  if (schema.def.catchall !== undefined) return undefined;
  return Object.keys(schema.shape);
}

/** The first top-level key of `value` that `schema` does not take, in the form the caller sent. */
function unknownKey(
  schema: z.ZodType,
  value: unknown,
  keys: 'wire' | 'as-is',
): { key: string; known: string[] } | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const shape = knownKeys(schema);
  if (!shape) return undefined;
  const known = keys === 'wire' ? shape.map(wireKey) : shape;
  // `sessionId` reads as `session_id` (fromWire keeps camelCase keys), so it is not unknown.
  const key = Object.keys(value).find(
    (name) => !known.includes(keys === 'wire' ? wireKey(name) : name),
  );
  return key === undefined ? undefined : { key, known };
}
