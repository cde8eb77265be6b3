/**
 * Renders a one-line progress bar for a terminal, e.g. `[#######-------] 12/24  50%`.
 *
 * @example
 * process.stderr.write(`\r${renderProgressBar(done, total)}`);
 */
export function renderProgressBar(done: number, total: number, width = 24): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(ratio * width);
  const percent = `${Math.round(ratio * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${percent}`;
}
