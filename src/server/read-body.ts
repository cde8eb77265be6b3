import type { Context } from 'hono';
import type { z } from 'zod';
import {
  duplicateKeyMessage,
  findDuplicateKey,
  findJsonProblem,
  MAX_JSON_DEPTH,
  parseWireInput,
  unsafeTextMessage,
} from '../schema/index.js';
import { apiError, HttpError } from './api-error.js';

/**
 * The content types a JSON body may be declared with (`application/json`, `application/x+json`…),
 * with parameters after a `;`. The type ends at `json`: `application/json-seq` (a sequence of
 * records), `application/json/x` or a list `application/json, text/plain` is not a JSON body.
 */
export const JSON_CONTENT_TYPE = /^\s*application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** A `charset` parameter of a content type, lower case, or undefined when there is none. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** Decodes UTF-8 strictly: a byte sequence UTF-8 does not allow throws instead of becoming U+FFFD. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The message of a body whose bytes are not UTF-8. */
export const NOT_UTF8_MESSAGE =
  'The request body is not valid UTF-8 (it holds bytes no UTF-8 text has, as Latin-1 or UTF-16 text does): send the JSON encoded as UTF-8.';

/**
 * The text of a body's bytes read as UTF-8 (a leading byte order mark dropped), or undefined when
 * they are not valid UTF-8. A lenient decoder would turn such bytes into U+FFFD, and a question
 * would be routed, answered and stored with characters the client never sent.
 *
 * @example
 * utf8Text(new Uint8Array([0x7b, 0x7d])); // '{}'
 * utf8Text(new Uint8Array([0xff, 0xfe])); // undefined
 */
export function utf8Text(bytes: ArrayBuffer | Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Why a JSON body declared with these headers cannot be read as sent, or undefined when it can:
 * bodies are read as UTF-8 text, so a `charset` other than UTF-8 (a UTF-16 body would fail as
 * "not valid JSON", a Latin-1 one be read wrong) and a `Content-Encoding` (a gzipped body read
 * as text) are refused with a message that says what to send instead.
 *
 * @example
 * bodyEncodingProblem('application/json; charset=utf-16', undefined); // 'The body's charset …'
 */
export function bodyEncodingProblem(
  contentType: string,
  contentEncoding: string | undefined,
): string | undefined {
  const charset = contentType.includes(';') ? CHARSET.exec(contentType)?.[1] : undefined;
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    return `The body's charset "${charset}" is not supported: send the JSON as UTF-8.`;
  }
  const encoding = contentEncoding?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    return `Content-Encoding "${contentEncoding}" is not supported: send the body uncompressed.`;
  }
  return undefined;
}

/**
 * Reads a JSON request body and validates it with `schema`. The split between statuses:
 * not UTF-8, not JSON (or not an object, nested deeper than {@link MAX_JSON_DEPTH}, or an object
 * with a key given twice, which `JSON.parse` would read as its last value) is 400
 * `malformed_json`; a body that is not declared as JSON is 415; valid JSON whose fields are wrong,
 * including a key or string holding a NUL character or an unpaired surrogate, is 422
 * `invalid_input` naming the field. Keys arrive in
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
  const encodingProblem = bodyEncodingProblem(type, c.req.header('content-encoding'));
  if (encodingProblem) throw new HttpError(apiError('unsupported_media_type', encodingProblem));
  const text = utf8Text(await c.req.arrayBuffer());
  if (text === undefined) throw new HttpError(apiError('malformed_json', NOT_UTF8_MESSAGE));
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
  // `{"query":"a","query":"b"}` says two things; JSON.parse would keep the second without a word.
  const duplicate = findDuplicateKey(text, json);
  if (duplicate) {
    throw new HttpError(
      apiError(
        'malformed_json',
        `The request body gives ${duplicateKeyMessage(duplicate)}: give each key of an object once.`,
        duplicate.path ? `${duplicate.path}.${duplicate.key}` : duplicate.key,
      ),
    );
  }
  // The JSON was read; a string the store cannot hold is a wrong value of its field, as in MCP.
  if (problem?.kind === 'unsafe_text') {
    throw new HttpError(
      apiError('invalid_input', unsafeTextMessage(problem, 'body'), problem.path || undefined),
    );
  }
  // A CohortError from here is mapped to 422 by the error handler, with its message and field.
  return parseWireInput(schema, json, {
    keys: options.wire === false ? 'as-is' : 'wire',
    checked: true,
  });
}
