import { CohortError, oneOf, refusedValue } from '../errors/index.js';

/** The halves of a blind set: tune on `tune`, only report `heldout`. */
export const SPLITS = ['tune', 'heldout'] as const;
/** One of {@link SPLITS}. */
export type Split = (typeof SPLITS)[number];

/** True when `value` is one of {@link SPLITS}. */
export const isSplit = (value: string): value is Split =>
  (SPLITS as readonly string[]).includes(value);

/**
 * The `--split` an evaluation was given, or an `invalid_input` error naming it and the allowed
 * values (any value was taken: a misspelt half quietly matched no case, or every case).
 *
 * @example
 * parseSplit('heldout'); // 'heldout'
 * parseSplit('test'); // throws: --split must be one of "tune", "heldout", not "test".
 */
export function parseSplit(value: string | undefined): Split | undefined {
  if (value === undefined || isSplit(value)) return value;
  throw new CohortError('invalid_input', `${refusedValue('--split', oneOf(SPLITS), value)}.`, {
    field: 'split',
  });
}

/**
 * The cases of one split, or all of them when no split is asked for; a split no case has is an
 * `invalid_input` error saying which splits the set has (an empty half scored 0 of 0).
 *
 * @example
 * casesOfSplit(cases, 'heldout', 'routing case');
 */
export function casesOfSplit<T extends { split?: string | undefined }>(
  cases: readonly T[],
  split: Split | undefined,
  what: string,
): T[] {
  if (split === undefined) return [...cases];
  const kept = cases.filter((entry) => entry.split === split);
  if (kept.length === 0) {
    const splits = [...new Set(cases.map((entry) => entry.split).filter(Boolean))];
    throw new CohortError(
      'invalid_input',
      `No ${what} has split "${split}"${splits.length ? ` (the file has: ${splits.join(', ')})` : ' (the file has no split field)'}.`,
      { field: 'split' },
    );
  }
  return kept;
}
