/** The heading of a research report's Sources section (the report is Markdown). */
export const REPORT_SOURCES_HEADING = '## Sources';

/**
 * A research report without its Sources section: the body the findings' `[n]` markers sit in
 * (the page draws the sources from the result itself, not from the report's lines).
 *
 * @example
 * reportBody('# Q\n\nA finding [1].\n\n## Sources\n\n1. a.md\n'); // '# Q\n\nA finding [1].\n'
 */
export function reportBody(report: string): string {
  const at = report.indexOf(`\n${REPORT_SOURCES_HEADING}\n`);
  return at < 0 ? report : report.slice(0, at);
}
