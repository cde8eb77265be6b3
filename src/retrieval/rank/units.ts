/**
 * Units of measure read as one word however they are written. A book writes "32GB" and "10W-30W";
 * a reader asks "is 16 gigs enough?" or "how many watts?". Each spelling of a unit becomes the same
 * token on both sides, so the question's unit meets the book's figure.
 */

/** Spellings a unit is written with on its own ("16 GB", "gigs", "kilos") → its one token. */
const UNIT_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    gigabyte: ['gb', 'gbs', 'gig', 'gigs', 'gigabytes'],
    megabyte: ['mb', 'mbs', 'meg', 'megs', 'megabytes'],
    terabyte: ['tb', 'tbs', 'terabytes'],
    watt: ['watts'],
    kilowatt: ['kw', 'kilowatts'],
    gigahertz: ['ghz'],
    megahertz: ['mhz'],
    hertz: ['hz'],
    kilogram: ['kg', 'kgs', 'kilo', 'kilos', 'kilograms'],
    millimetre: ['mm', 'millimetres', 'millimeter', 'millimeters'],
    centimetre: ['cm', 'centimetres', 'centimeter', 'centimeters'],
    metre: ['metres', 'meter', 'meters'],
    millisecond: ['ms', 'msec', 'milliseconds'],
    volt: ['volts'],
  }).flatMap(([unit, spellings]) => [
    [unit, unit] as const,
    ...spellings.map((s) => [s, unit] as const),
  ]),
);

/**
 * Units written only right after a figure ("10W", "1.5m", "12V"): alone, "w", "m" or "v" is a
 * letter, not a unit.
 */
const GLUED_ONLY: ReadonlyMap<string, string> = new Map([
  ['w', 'watt'],
  ['m', 'metre'],
  ['v', 'volt'],
]);

const FIGURE_WITH_UNIT = /^(\d+(?:\.\d+)?)([a-z]+)$/;

/** The one token of a unit spelled `token` on its own ("gigs" → "gigabyte"), if it is one. */
export function unitWord(token: string): string | undefined {
  return UNIT_WORDS.get(token);
}

/**
 * A figure written with its unit ("32gb", "10w", "2.4ghz") as the figure and the unit's one token
 * (["32", "gigabyte"]); undefined for any other token ("g5", "3d", "h1").
 */
export function figureWithUnit(token: string): [figure: string, unit: string] | undefined {
  // Most tokens are words: a first character that is no digit settles it without the expression.
  const first = token.charCodeAt(0);
  if (first < 48 || first > 57) return undefined;
  const match = FIGURE_WITH_UNIT.exec(token);
  if (!match) return undefined;
  const unit = UNIT_WORDS.get(match[2]!) ?? GLUED_ONLY.get(match[2]!);
  return unit ? [match[1]!, unit] : undefined;
}
