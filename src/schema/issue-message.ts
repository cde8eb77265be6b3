import type * as z from 'zod';
import { jsonKind } from './json-kind.js';

/** A check's issue as zod hands it to an error map: the input is there, the message not yet. */
type RawIssue = z.core.$ZodRawIssue;

/** What a value of each type zod expects is called in a message. */
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/** `is 20000 characters`, `has 300 items`, `is 99`: what was sent, for a size or bound check. */
function sent(origin: string, input: unknown): string | undefined {
  if (origin === 'string' && typeof input === 'string')
    return `is ${input.length} character${input.length === 1 ? '' : 's'}`;
  if (origin === 'array' && Array.isArray(input))
    return `has ${input.length} item${input.length === 1 ? '' : 's'}`;
  if (typeof input === 'number' || typeof input === 'bigint') return `is ${input}`;
  return undefined;
}

/** `the limit is 10000`, `the least allowed is 1`: the bound a size or number check holds to. */
function bound(issue: RawIssue & { code: 'too_big' | 'too_small' }): string {
  const inclusive = issue.inclusive !== false;
  if (issue.code === 'too_big')
    return inclusive ? `the limit is ${issue.maximum}` : `it must be under ${issue.maximum}`;
  return inclusive ? `the least allowed is ${issue.minimum}` : `it must be over ${issue.minimum}`;
}

/**
 * What a client sent, in a message: a number, true/false or a short text as it is (`"high"`, so a
 * quoted `"10"` shows its quotes), a long text by its length (not echoed back whole), anything else
 * by its kind. "a string" was said of a 101-character `--session`, which is one.
 */
const described = (input: unknown) => {
  if (typeof input === 'number' || typeof input === 'boolean') return String(input);
  if (typeof input !== 'string') return jsonKind(input);
  return input.length <= 60 ? JSON.stringify(input) : `text of ${input.length} characters`;
};

/**
 * `FIELD must be WANTED, not GIVEN`: the one wording of a refused value, wherever it was given (a
 * request field, a config setting, an environment variable, a command-line flag, an option), so a
 * user reads every refusal alike. `given` is shown as {@link described} shows it (`"high"`, `5`,
 * `an object`).
 *
 * @example
 * refusedValue('COHORT_PORT', 'a number', 'abc'); // 'COHORT_PORT must be a number, not "abc"'
 */
export function refusedValue(field: string, wanted: string, given: unknown): string {
  return `${field} must be ${wanted}, not ${described(given)}`;
}

/**
 * The allowed values of a setting, quoted as JSON writes them: `"a"`, or `one of "a", "b"`.
 *
 * @example
 * oneOf(['tune', 'heldout']); // 'one of "tune", "heldout"'
 */
export function oneOf(values: readonly unknown[]): string {
  const options = values.map((value) => JSON.stringify(value));
  return options.length === 1 ? (options[0] as string) : `one of ${options.join(', ')}`;
}

/**
 * The message of a failed check of a field, in cohort's words and naming the field as the user
 * gave it (`field`: a request's `selected_text`, a `--session` flag, `COHORT_KEEP_RUNS
 * (keepRuns)`, a config file's `routing.threshold`, a frontmatter's `answer_style`): zod's defaults ("Too big: expected string to have <=10000
 * characters") name neither the field nor what was sent. Over- and under-limit values say what
 * came and what is allowed; a value of the wrong type says what it should be and what it was; an
 * option not in a list names the options. Undefined for other checks, and for a failure of the
 * whole body (no field): zod's own message stands. Messages a schema gives itself (`Query`'s "The
 * question is too long…") are not replaced: zod asks an error map only for checks that have none.
 *
 * @example
 * schema.safeParse(body, { error: (issue) => issueMessage(issue, 'selected_text') });
 * // 'selected_text is 20000 characters; the limit is 10000'
 */
export function issueMessage(issue: RawIssue, field: string): string | undefined {
  if (field === '') return undefined;
  switch (issue.code) {
    case 'too_big':
    case 'too_small': {
      if (issue.origin === 'string' && issue.input === '') return `${field} must not be empty`;
      const what = sent(issue.origin, issue.input);
      return what === undefined ? undefined : `${field} ${what}; ${bound(issue)}`;
    }
    case 'invalid_type': {
      if (issue.input === undefined) return `${field} is required`;
      return refusedValue(field, EXPECTED[issue.expected] ?? issue.expected, issue.input);
    }
    case 'invalid_value':
      return refusedValue(field, oneOf(issue.values), issue.input);
    case 'invalid_union': {
      // `text, a list or null` when every alternative refused the value's type itself.
      const expected = issue.errors.map((branch) => {
        const only = branch.length === 1 ? branch[0] : undefined;
        return only?.code === 'invalid_type' && only.path.length === 0
          ? (EXPECTED[only.expected] ?? only.expected)
          : undefined;
      });
      if (expected.length === 0 || expected.includes(undefined) || issue.input === undefined)
        return undefined;
      const last = expected.pop() as string;
      const wanted = expected.length > 0 ? `${expected.join(', ')} or ${last}` : last;
      return refusedValue(field, wanted, issue.input);
    }
    case 'unrecognized_keys':
      return `${field} has ${issue.keys.length === 1 ? 'a field' : 'fields'} it does not take: ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    default:
      return undefined;
  }
}

/**
 * `field: reason`, or the reason alone when it names the field already ({@link issueMessage}'s
 * do, as do a schema's own "session_id must be a UUID"): the field is not said twice.
 *
 * @example
 * withField('routing.threshold', 'routing.threshold is 5; the limit is 1'); // the reason alone
 * withField('model.baseUrl', 'must be an http or https URL'); // 'model.baseUrl: must be …'
 */
export function withField(field: string | undefined, reason: string): string {
  return field && !reason.includes(field) ? `${field}: ${reason}` : reason;
}
