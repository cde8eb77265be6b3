import { isCohortError, type CohortErrorCode } from '../errors/index.js';
import { wireKey } from '../schema/index.js';

/** Error codes only the HTTP layer reports, on top of {@link CohortErrorCode}. */
export type HttpOnlyCode =
  | 'malformed_json'
  | 'bad_request'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'request_timeout'
  | 'headers_too_large'
  | 'expectation_failed'
  | 'host_not_allowed'
  | 'origin_not_allowed'
  | 'store_unavailable'
  | 'shutting_down';

/** An error as the HTTP API reports it: a status and the `{ error: { code, message, field } }` body. */
export interface ApiError {
  status:
    400 | 401 | 403 | 404 | 405 | 408 | 409 | 413 | 415 | 417 | 422 | 429 | 431 | 500 | 503 | 504;
  code: CohortErrorCode | HttpOnlyCode;
  message: string;
  /** The wrong field in wire (snake_case) form, when one field is to blame. */
  field?: string;
}

/**
 * The status of each error code. `invalid_input` is 422 because it comes from a body that parsed
 * as JSON but whose fields are wrong; a body that is not JSON at all is `malformed_json` (400) and
 * a malformed path or query parameter is `bad_request` (400).
 */
const STATUS: Record<ApiError['code'], ApiError['status']> = {
  malformed_json: 400,
  bad_request: 400,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  request_timeout: 408,
  headers_too_large: 431,
  expectation_failed: 417,
  host_not_allowed: 403,
  origin_not_allowed: 403,
  invalid_input: 422,
  unauthorized: 401,
  forbidden: 401,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  retrieval_unavailable: 503,
  model_unavailable: 503,
  model_not_configured: 503,
  store_unavailable: 503,
  shutting_down: 503,
  timeout: 504,
  aborted: 503,
  budget_exceeded: 503,
  isolation_violation: 500,
  internal: 500,
};

/**
 * Builds an {@link ApiError} for a code, with the status the code maps to.
 *
 * @example
 * apiError('not_found', 'No session "…" has messages.'); // { status: 404, ... }
 */
export function apiError(code: ApiError['code'], message: string, field?: string): ApiError {
  return { status: STATUS[code], code, message, ...(field ? { field: wireKey(field) } : {}) };
}

/** Thrown inside a handler to answer with a given {@link ApiError}. */
export class HttpError extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
    this.name = 'HttpError';
  }
}

/**
 * Maps anything thrown while serving a request to an {@link ApiError}. A `CohortError` keeps
 * its code and message; anything else is a 500 whose message hides the internals (they are logged).
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof HttpError) return error.apiError;
  if (isCohortError(error)) return apiError(error.code, error.message, error.field);
  return apiError(
    'internal',
    'The server failed to answer this request. Try again; if it keeps failing, report the request id.',
  );
}

/** The JSON body of an error response. */
export function errorBody(error: ApiError): {
  error: { code: string; message: string; field: string | null };
} {
  return { error: { code: error.code, message: error.message, field: error.field ?? null } };
}
