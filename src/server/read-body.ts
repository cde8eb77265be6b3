import type { Context } from 'hono';
import type { z } from 'zod';
import {
  findJsonProblem,
  MAX_JSON_DEPTH,
  parseWireInput,
  UNSAFE_TEXT_MESSAGE,
} from '../schema/index.js';
import { apiError, HttpError } from './api-error.js';

/** The content types a JSON body may be declared with (`application/json`, `application/x+json`…). */
export const JSON_CONTENT_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/**
 * Reads a JSON request body and validates it with `schema`. The split between statuses:
 * not JSON (or not an object, nested deeper than {@link MAX_JSON_DEPTH}, or holding a NUL character
 * or an unpaired surrogate in any string) is 400 `malformed_json`; a body that is not declared as JSON is 415;
 * valid JSON whose fields are wrong is 422 `invalid_input` naming the field. Keys arrive in
 * snake_case and are read into camelCase unless `wire` is false (the OpenAI endpoint).
 *
 * @example
 * const request = await readBody(c, ChatRequest); // throws HttpError
 */
export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { wire?: boolean } = {},
): Promise<z.infer<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!JSON_CONTENT_TYPE.test(type)) {
    throw new HttpError(
      apiError(
        'unsupported_media_type',
        'Send the body as JSON with the header "Content-Type: application/json".',
      ),
    );
  }
  const text = await c.req.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(
      apiError(
        'malformed_json',
        text.trim() === ''
          ? 'The request body is empty: send a JSON object.'
          : 'The request body is not valid JSON.',
      ),
    );
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new HttpError(apiError('malformed_json', 'The request body must be a JSON object.'));
  }
  // Checked before anything walks the body recursively, and before text can reach the database.
  const problem = findJsonProblem(json);
  if (problem?.kind === 'too_deep') {
    throw new HttpError(
      apiError(
        'malformed_json',
        `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
      ),
    );
  }
  if (problem?.kind === 'unsafe_text') {
    const field = problem.path || 'body';
    throw new HttpError(apiError('malformed_json', `${field} ${UNSAFE_TEXT_MESSAGE}.`, field));
  }
  // A CohortError from here is mapped to 422 by the error handler, with its message and field.
  return parseWireInput(schema, json, {
    keys: options.wire === false ? 'as-is' : 'wire',
    checked: true,
  });
}
