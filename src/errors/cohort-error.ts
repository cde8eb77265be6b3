import * as z from 'zod';
import { issueMessage, withField } from '../schema/issue-message.js';
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

/** A field path → the name the user gave it, or undefined to keep the schema's. */
export type FieldNames =
  Readonly<Record<string, string>> | ((path: readonly PropertyKey[]) => string | undefined);

/** How a validation error is told: the file it is in, a prefix, and the user's names of fields. */
export interface ZodErrorOptions {
  file?: string;
  prefix?: string;
  /**
   * The names the user gave fields: `{ sessionId: '--session' }` for a CLI flag, `answer_style`
   * for a frontmatter's `answerStyle`, or a function of the path (the environment variable that
   * set a setting).
   */
  names?: FieldNames;
}

/** A field as the user named it: its name in `names`, else its dotted path. */
function userName(path: readonly PropertyKey[], names: FieldNames | undefined): string {
  const field = path.map(String).join('.');
  return (typeof names === 'function' ? names(path) : names?.[field]) ?? field;
}

/**
 * The error map of a boundary that is not a request (a config file, an environment variable, a
 * CLI flag, a frontmatter): a check with no message of its own is told in cohort's words by
 * {@link issueMessage}, naming the field as the user gave it, where zod's default ("Invalid input:
 * expected number, received string") named neither what was given nor what is allowed.
 *
 * @example
 * CohortConfig.safeParse(merged, { error: issueWording({ names }) });
 */
export function issueWording(options: Pick<ZodErrorOptions, 'names'> = {}) {
  return (issue: z.core.$ZodRawIssue): string | undefined => {
    const path = issue.path ?? [];
    return path.length === 0 ? undefined : issueMessage(issue, userName(path, options.names));
  };
}

/**
 * Why a record's key was refused (`mcpServers: { "bad name": … }`): zod's own message says only
 * "Invalid key in record", and keeps the key schema's message in the issue's own issues.
 */
function keyIssueMessage(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== 'invalid_key') return undefined;
  return issue.issues[0]?.message;
}

/**
 * Turns a zod failure into an `invalid_input` error naming the first wrong field (once: a message
 * of {@link issueWording} names it itself).
 */
export function fromZodError(error: z.ZodError, options: ZodErrorOptions = {}) {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  // The message names the field as the user gave it ("--session"), the error keeps the schema's.
  const named = issue && field !== undefined ? userName(issue.path, options.names) : undefined;
  const reason = (issue && keyIssueMessage(issue)) ?? issue?.message ?? 'invalid input';
  const told = [options.file, withField(named, reason)].filter(Boolean).join(': ');
  const message = `${options.prefix ?? ''}${told}`;
  return new CohortError('invalid_input', message, { field, file: options.file, cause: error });
}

/**
 * Parses `input` with `schema`, throwing an `invalid_input` {@link CohortError} on failure, its
 * message in cohort's words ({@link issueWording}).
 *
 * @example
 * const context = parseInput(AgentContext, { query: 'What is a topic?' });
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  options: ZodErrorOptions = {},
): z.infer<S> {
  const result = schema.safeParse(input, { error: issueWording(options) });
  if (!result.success) throw fromZodError(result.error, options);
  return result.data;
}

/**
 * What was wrong in a file, without the file's name the message starts with: a loader that lists
 * the malformed files it skipped (skills, subagent types) names the file itself. A place after the
 * name (`a.md:3:6: …`, a syntax error's) is kept in words.
 *
 * @example
 * reasonInFile(new CohortError('invalid_input', 'a.md: model must be text, not 5', { file: 'a.md' })); // 'model must be text, not 5'
 * reasonInFile(new CohortError('invalid_input', 'a.md:3:6: invalid YAML …', { file: 'a.md' })); // 'line 3, column 6: invalid YAML …'
 */
export function reasonInFile(error: CohortError): string {
  if (!error.file || !error.message.startsWith(error.file)) return error.message;
  const rest = error.message.slice(error.file.length);
  const place = /^:(\d+):(\d+): /.exec(rest);
  if (place) return `line ${place[1]}, column ${place[2]}: ${rest.slice(place[0].length)}`;
  return rest.startsWith(': ') ? rest.slice(2) : error.message;
}
