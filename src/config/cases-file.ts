import { closeSync, fstatSync, openSync } from 'node:fs';
import { readUpTo } from './found-file.js';
import { CohortError } from '../errors/index.js';

/** Largest evaluation set read, in bytes: the sets cohort ships hold well under 1 MB. */
export const MAX_CASES_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The text of an evaluation set (JSONL), or an `invalid_input` error naming the file and what is
 * wrong with it: a folder ('cohort eval skills /tmp' said 'unexpected error: EISDIR'), or more
 * than {@link MAX_CASES_FILE_BYTES} (a device such as /dev/zero was read without end).
 *
 * @example
 * const text = readCasesFile('eval/skills-blind.jsonl', 'skill set');
 */
export function readCasesFile(file: string, what: string): string {
  let handle: number | undefined;
  try {
    handle = openSync(file, 'r');
    if (fstatSync(handle).isDirectory())
      throw new CohortError(
        'invalid_input',
        `${file}: this ${what} is a folder, not a JSONL file: name the file in it.`,
        { file },
      );
    const text = readUpTo(handle, MAX_CASES_FILE_BYTES);
    if (text === undefined)
      throw new CohortError(
        'invalid_input',
        `${file}: this ${what} holds more than ${MAX_CASES_FILE_BYTES / 1024 / 1024} MB (or never ends): name a JSONL file of cases.`,
        { file },
      );
    return text;
  } catch (cause) {
    if (cause instanceof CohortError) throw cause;
    throw new CohortError(
      'invalid_input',
      `Cannot read the ${what} ${file}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { file, cause },
    );
  } finally {
    if (handle !== undefined) closeSync(handle);
  }
}
