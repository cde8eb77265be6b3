import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
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
    const bytes = Buffer.alloc(MAX_CASES_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(handle, bytes, length, bytes.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_CASES_FILE_BYTES)
        throw new CohortError(
          'invalid_input',
          `${file}: this ${what} holds more than ${MAX_CASES_FILE_BYTES / 1024 / 1024} MB (or never ends): name a JSONL file of cases.`,
          { file },
        );
    }
    return new TextDecoder().decode(bytes.subarray(0, length));
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
