const CARDINALS =
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen ' +
  'sixteen seventeen eighteen nineteen twenty';
const ORDINALS =
  'first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth ' +
  'fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth';

const numbered = (list: string): ReadonlyMap<string, number> =>
  new Map(list.split(' ').map((word, i) => [word, i + 1] as const));

/**
 * The numbers a question may spell out, one to twenty, as a book numbers its weeks, phases and
 * steps ("seven" → 7).
 */
export const CARDINAL_NUMBERS = numbered(CARDINALS);

/** The ordinals one to twenty ("seventh" → 7). */
export const ORDINAL_NUMBERS = numbered(ORDINALS);
