/**
 * A sentence that points to other text instead of saying something: "The text below explains the
 * derivation of the range of domain IDs …", "See the domain ID article for details", "For more
 * information about the design, see the design PR". It names the question's words as well as the
 * sentence that answers, often better, and was quoted in its place ("Which domain IDs are safe to
 * use?" answered "The text below explains …" above "simply choose a domain ID between 0 and 101").
 */
const POINTER =
  /\b(?:text|section|discussion|explanation|article|page|table|figure|example|steps?) below\b|^(?:please )?(?:see|refer to)\b|\bfor (?:more |further )?(?:details|information)\b/i;

/**
 * True when `text` points to other text rather than stating something (see {@link POINTER}).
 *
 * @example
 * pointsElsewhere('The text below explains the derivation of the range.'); // true
 * pointsElsewhere('Choose a domain ID between 0 and 101, inclusive.'); // false
 */
export function pointsElsewhere(text: string): boolean {
  return POINTER.test(text);
}
