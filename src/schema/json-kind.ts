/**
 * What a JSON value is, in words, for a message that tells a client what it sent: `null`,
 * `a list`, `an object`, `a number`, `a string`, `a boolean`.
 *
 * @example
 * `must be text, not ${jsonKind([1])}`; // 'must be text, not a list'
 */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
