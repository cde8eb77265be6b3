import { formatNumber } from '../errors/index.js';

/**
 * A count with its noun in agreement: `1 file`, `0 files`, `2 chunks`. `many` is for nouns whose
 * plural is not the singular plus "s"; `format` shows the number (thousands separators).
 *
 * @example
 * countOf(1, 'file'); // "1 file"
 * countOf(12_000, 'token', { format: true }); // "12,000 tokens"
 */
export function countOf(
  count: number,
  one: string,
  options: { many?: string; format?: boolean } = {},
): string {
  const number = options.format ? formatNumber(count) : String(count);
  return `${number} ${count === 1 ? one : (options.many ?? `${one}s`)}`;
}
