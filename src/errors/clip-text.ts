import { formatNumber } from './format-number.js';

/**
 * Text from outside (a server's error body, a log field) cut to `maxChars`, saying how much was
 * left out: one of megabytes would otherwise be carried whole into every message or log line.
 *
 * @example
 * clipText('x'.repeat(5_000), 4_000); // 'xxx…x… (1,000 more characters)'
 */
export function clipText(text: string, maxChars: number): string {
  return text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars)}… (${formatNumber(text.length - maxChars)} more characters)`;
}
