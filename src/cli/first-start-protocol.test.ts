import { describe, expect, it } from 'vitest';
import { PrepareReport } from './first-start-protocol.js';

describe('PrepareReport', () => {
  it("keeps a failure's code when cohort knows it", () => {
    const report = PrepareReport.parse({ type: 'failed', code: 'invalid_input', message: 'bad' });
    expect(report).toMatchObject({ type: 'failed', code: 'invalid_input' });
  });

  it('reports a code this version does not know as internal, with its message', () => {
    const report = PrepareReport.parse({ type: 'failed', code: 'disk_on_fire', message: 'smoke' });
    expect(report).toEqual({ type: 'failed', code: 'internal', message: 'smoke' });
  });

  it('refuses a report with no type it knows', () => {
    expect(PrepareReport.safeParse({ type: 'finished' }).success).toBe(false);
  });
});
