import type { Context } from 'hono';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from '../schema/index.js';
import { apiError, HttpError } from './api-error.js';

/** Longest run id a path may carry (UUIDs, and ids a caller chose for a research run). */
export const MAX_RUN_ID_LENGTH = 200;

/**
 * The `:id` of a run path (`/runs/:id/trace`, `/code/runs/:id/approval`), or a 400 naming it:
 * empty, longer than {@link MAX_RUN_ID_LENGTH}, or holding a NUL character or an unpaired
 * surrogate (which the database cannot store, so looking it up failed with a 500).
 *
 * @example
 * const id = runIdParam(c); // throws HttpError(400) for "/runs/%00/trace"
 */
export function runIdParam(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!id || id.length > MAX_RUN_ID_LENGTH)
    throw new HttpError(
      apiError(
        'bad_request',
        `The run id in the path must be 1 to ${MAX_RUN_ID_LENGTH} characters.`,
        'id',
      ),
    );
  if (!isSafeText(id))
    throw new HttpError(
      apiError('bad_request', `The run id in the path ${UNSAFE_TEXT_MESSAGE}.`, 'id'),
    );
  return id;
}
