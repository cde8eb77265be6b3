import { describe, expect, it } from 'vitest';
import { REPORT_SOURCES_HEADING, reportBody } from './report-sources.js';

describe('research report Sources section', () => {
  it('cuts the report at its Sources heading, and leaves a report without one whole', () => {
    const report = `# Q\n\nA finding [1].\n\n${REPORT_SOURCES_HEADING}\n\n1. a.md\n`;
    expect(reportBody(report)).toBe('# Q\n\nA finding [1].\n');
    expect(reportBody('# Q\n\nNo sources heading here.\n')).toBe(
      '# Q\n\nNo sources heading here.\n',
    );
    // A heading that only starts with the word is not the section.
    expect(reportBody('# Q\n\n## Sources of error\n\ntext\n')).toBe(
      '# Q\n\n## Sources of error\n\ntext\n',
    );
  });
});
