/**
 * A whole number as messages write it, with thousands separators: `8,000,000`. Not
 * `toLocaleString('en-US')`: its first call in a process loads ICU's number formatting, 65–80 ms
 * of CPU on the development machine, and config.ts wrote a limit into a schema's message when
 * it loaded, so every `import('cohort')` and every `cohort` command paid it.
 *
 * @example
 * formatNumber(2_147_483); // "2,147,483"
 * formatNumber(-1234.5); // "-1,234.5"
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const [whole = '', fraction] = String(Math.abs(value)).split('.');
  // An exponent form (1e21 and up) is left as String writes it.
  if (/e/i.test(whole)) return String(value);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}
