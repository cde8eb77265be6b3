/** Default cap on what one tool call returns to the model, in characters. */
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

/**
 * Cuts `text` to `maxChars`, keeping the head and the tail (where errors and summaries tend to be)
 * and saying how much was dropped, so a tool never floods the model's context.
 *
 * @example
 * truncateText('a'.repeat(100), 20).text; // 'aaaaaaaaa\n… [80 characters cut] …\naaaaaaaaaa' (roughly)
 */
export function truncateText(
  text: string,
  maxChars: number = DEFAULT_MAX_OUTPUT_CHARS,
): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const head = Math.ceil(maxChars * 0.6);
  const tail = Math.max(0, maxChars - head);
  const cut = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n… [${cut} characters cut] …\n${tail > 0 ? text.slice(-tail) : ''}`,
    truncated: true,
  };
}
