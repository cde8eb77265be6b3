import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CohortError, refusedValue } from '../errors/index.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parsed flags and positionals of one command. */
export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * Parses a command's arguments strictly: an unknown flag or a missing value is an
 * `invalid_input` error that names it and shows the usage.
 *
 * @example
 * const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, usage);
 */
export function parseCommandArgs(args: string[], options: Options, usage: string): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new CohortError('invalid_input', `${reason}\nUsage: ${usage}`, { cause });
  }
  // An empty value is refused, not read as the flag left out: `--resume "$RUN"` with RUN unset
  // started a new research run, and `--data-dir ""` made a data folder the user never named.
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === '' || (Array.isArray(value) && value.includes('')))
      throw new CohortError(
        'invalid_input',
        `--${name} was given an empty value: give it one, or leave the flag out.\nUsage: ${usage}`,
        { field: name },
      );
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

/**
 * The one positional a command needs, or an `invalid_input` error: `missing` when it is given
 * (the spec's own words for an empty question), else one naming it.
 *
 * @example
 * const question = requirePositional(positionals, 'question', usage, EMPTY_QUERY_MESSAGE);
 */
export function requirePositional(
  positionals: string[],
  name: string,
  usage: string,
  missing = `Missing ${name}.`,
): string {
  const value = positionals.join(' ').trim();
  if (!value)
    throw new CohortError('invalid_input', `${missing}\nUsage: ${usage}`, { field: name });
  return value;
}

/**
 * The single positional a command takes (a folder, a path), or an `invalid_input` error: naming
 * it when it is missing, and naming the first extra argument when there are more. Unlike
 * {@link requirePositional} it never joins words: `cohort ingest /a /b` is two folders, not the
 * folder "/a /b".
 *
 * @example
 * const dir = onlyPositional(positionals, 'folder', usage);
 */
export function onlyPositional(positionals: string[], name: string, usage: string): string {
  const [value, extra] = positionals;
  if (value === undefined || value.trim() === '')
    throw new CohortError('invalid_input', `Missing ${name}.\nUsage: ${usage}`, { field: name });
  if (extra !== undefined)
    throw new CohortError(
      'invalid_input',
      `Unexpected argument "${extra}": one ${name} at a time, "${value}".\nUsage: ${usage}`,
      { field: name },
    );
  return value;
}

/** A string flag's value, if given. */
export function stringFlag(values: ParsedArgs['values'], name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * An optional whole-number flag within `min..max`; anything else is an `invalid_input` error that
 * names the flag, the range and the value given.
 *
 * @example
 * const port = integerFlag(values, 'port', { min: 0, max: 65535 }, usage);
 */
export function integerFlag(
  values: ParsedArgs['values'],
  name: string,
  range: { min: number; max: number },
  usage: string,
): number | undefined {
  const value = stringFlag(values, name);
  if (value === undefined) return undefined;
  // Decimal digits only: Number() reads "" and " " as 0 (so `--port ""` would listen on a random
  // port) and accepts "1e3" and "0x10".
  const number = /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) || number < range.min || number > range.max) {
    throw new CohortError(
      'invalid_input',
      `${refusedValue(`--${name}`, `a whole number from ${range.min} to ${range.max}`, value)}.\nUsage: ${usage}`,
      { field: name },
    );
  }
  return number;
}
