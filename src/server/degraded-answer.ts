import type { ChatResponse } from '../schema/index.js';
import { apiError, type ApiError } from './api-error.js';

/**
 * The error an answer stands for when the assistant could not search at all: agents degrade a
 * `retrieval_unavailable` failure into the spec's apology (rag-agent-research.md §4), which the
 * HTTP API reports as 503 with that same message so clients can retry.
 *
 * @example
 * const failure = degradedFailure(reply); // ApiError | undefined
 */
export function degradedFailure(response: ChatResponse): ApiError | undefined {
  if (response.metadata.error !== 'retrieval_unavailable') return undefined;
  return apiError('retrieval_unavailable', response.answer);
}
