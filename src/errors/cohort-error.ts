import * as z from 'zod';
import { lazySchema } from '../schema/lazy-schema.js';

/** Every error cohort reports, by kind. The HTTP layer maps each to a status. */
export const CohortErrorCode = lazySchema(() =>
  z.enum([
    'invalid_input',
    'not_found',
    'conflict',
    'payload_too_large',
    'unauthorized',
    'rate_limited',
    'retrieval_unavailable',
    'model_unavailable',
    'model_not_configured',
    'timeout',
    'aborted',
    'budget_exceeded',
    'forbidden',
    'isolation_violation',
    'internal',
  ]),
);
export type CohortErrorCode = z.infer<typeof CohortErrorCode>;

/** Options for a {@link CohortError}. */
export interface CohortErrorOptions {
  /** The input field that was wrong, as a dotted path. */
  field?: string;
  /** The file that was wrong. */
  file?: string;
  cause?: unknown;
}

/**
 * An error with a code and a message a user can act on.
 *
 * @example
 * throw new CohortError('not_found', 'No agent named "chef". Run `cohort agents` to list them.');
 */
export class CohortError extends Error {
  readonly code: CohortErrorCode;
  readonly field: string | undefined;
  readonly file: string | undefined;

  constructor(code: CohortErrorCode, message: string, options: CohortErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CohortError';
    this.code = code;
    this.field = options.field;
    this.file = options.file;
  }
}

/** True when `error` is a {@link CohortError}, optionally of the given code. */
export function isCohortError(error: unknown, code?: CohortErrorCode): error is CohortError {
  return error instanceof CohortError && (code === undefined || error.code === code);
}

/**
 * The {@link CohortError} a failure is or carries as a cause (a few levels deep): a library that
 * wraps what it caught (the AI SDK makes a fetch body's error "Failed to process successful
 * response") would otherwise hide cohort's own reason.
 *
 * @example
 * carriedCohortError(new Error('wrapped', { cause: new CohortError('timeout', 'late') }))?.code; // 'timeout'
 */
export function carriedCohortError(error: unknown): CohortError | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    if (current instanceof CohortError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** How a validation error is told: the file it is in, a prefix, and the user's names of fields. */
export interface ZodErrorOptions {
  file?: string;
  prefix?: string;
  /** A field path → the name the user gave it (`{ sessionId: '--session' }` for a CLI flag). */
  names?: Readonly<Record<string, string>>;
}

/**
 * Why a record's key was refused (`mcpServers: { "bad name": … }`): zod's own message says only
 * "Invalid key in record", and keeps the key schema's message in the issue's own issues.
 */
function keyIssueMessage(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== 'invalid_key') return undefined;
  return issue.issues[0]?.message;
}

/** Turns a zod failure into an `invalid_input` error naming the first wrong field. */
export function fromZodError(error: z.ZodError, options: ZodErrorOptions = {}) {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  // The message names the field as the user gave it ("--session"), the error keeps the schema's.
  const named = field !== undefined ? (options.names?.[field] ?? field) : undefined;
  const where = [options.file, named].filter(Boolean).join(': ');
  const reason = (issue && keyIssueMessage(issue)) ?? issue?.message ?? 'invalid input';
  const message = `${options.prefix ?? ''}${where ? `${where}: ` : ''}${reason}`;
  return new CohortError('invalid_input', message, { field, file: options.file, cause: error });
}

/**
 * Parses `input` with `schema`, throwing an `invalid_input` {@link CohortError} on failure.
 *
 * @example
 * const context = parseInput(AgentContext, { query: 'What is a topic?' });
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  options: ZodErrorOptions = {},
): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw fromZodError(result.error, options);
  return result.data;
}
