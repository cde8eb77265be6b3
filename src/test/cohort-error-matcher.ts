import { isCohortError, type CohortErrorCode } from '../errors/index.js';

/** A predicate factory for `expect(...).rejects.toSatisfy(...)` on CohortErrors. */
export function createCohortErrorMatcher() {
  return (code: CohortErrorCode, message: string) => (error: unknown) =>
    isCohortError(error, code) && error.message.includes(message);
}
