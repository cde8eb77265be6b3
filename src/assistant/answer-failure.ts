import { CohortError, type CohortErrorCode } from '../errors/index.js';
import type { ChatResponse } from '../schema/index.js';

/** `metadata.error` values that are answers, not failures: the spec's reply is the right one. */
const ANSWERED = new Set(['empty_query', 'no_results']);

const FAILURE_CODES = new Set<CohortErrorCode>([
  'retrieval_unavailable',
  'model_unavailable',
  'model_not_configured',
  'timeout',
  'budget_exceeded',
  'aborted',
]);

/**
 * The failure an answer stands for, when the assistant could not really answer: agents degrade a
 * failed model call or search into the spec's apology (rag-agent-research.md §4), and that reply is
 * not an answer. Shells report it as one (HTTP 503 `model_unavailable`, a non-zero exit), and the
 * turn is not saved to the session's history. The error's message is the spec's text.
 *
 * @example
 * const failure = answerFailure(reply); // CohortError('model_unavailable', "I'm unable to …") | undefined
 */
export function answerFailure(
  response: Pick<ChatResponse, 'answer' | 'metadata'>,
): CohortError | undefined {
  const error = response.metadata.error;
  if (typeof error !== 'string' || ANSWERED.has(error)) return undefined;
  const code = FAILURE_CODES.has(error as CohortErrorCode)
    ? (error as CohortErrorCode)
    : 'model_unavailable';
  return new CohortError(code, response.answer);
}
