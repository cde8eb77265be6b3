import { describe, expect, it } from 'vitest';
import { CohortError } from '../errors/index.js';
import { toolFailure, unwrapOutcome, type ToolOutcome } from './tool.js';

describe('tool outcomes', () => {
  it('keeps a CohortError code and message in a failure, and unwraps it back into the same error', () => {
    const failure: ToolOutcome<{ text: string }> = toolFailure(
      new CohortError('timeout', 'The search took longer than 5 s.'),
    );
    expect(failure).toEqual({
      ok: false,
      code: 'timeout',
      error: 'The search took longer than 5 s.',
    });
    expect(() => unwrapOutcome(failure)).toThrow(
      expect.objectContaining({ code: 'timeout', message: 'The search took longer than 5 s.' }),
    );
  });

  it('unwraps a success to its fields, and turns anything else thrown into an internal failure', () => {
    expect(unwrapOutcome<ToolOutcome<{ text: string }>>({ ok: true, text: 'hi' }).text).toBe('hi');
    expect(toolFailure(new Error('boom'))).toEqual({ ok: false, code: 'internal', error: 'boom' });
  });
});
