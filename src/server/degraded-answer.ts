import { answerFailure } from '../assistant/index.js';
import type { ChatResponse } from '../schema/index.js';
import { toApiError, type ApiError } from './api-error.js';

/**
 * The error an answer stands for when the assistant could not really answer: agents degrade a
 * failed search or model call into the spec's apology (rag-agent-research.md §4), which the HTTP
 * API reports with its status (503 `retrieval_unavailable` or `model_unavailable`, 504 `timeout`)
 * and that same message, so clients can retry. See {@link answerFailure}.
 *
 * @example
 * const failure = degradedFailure(reply); // ApiError | undefined
 */
export function degradedFailure(response: ChatResponse): ApiError | undefined {
  const failure = answerFailure(response);
  return failure ? toApiError(failure) : undefined;
}
