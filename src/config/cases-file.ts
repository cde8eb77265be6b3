import { readNamedFile } from './found-file.js';

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
  return readNamedFile(file, what, {
    maxBytes: MAX_CASES_FILE_BYTES,
    fileKind: 'JSONL file',
    tooLargeHint: 'name a JSONL file of cases',
  });
}
