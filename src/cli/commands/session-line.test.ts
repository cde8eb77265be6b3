import { describe, expect, it } from 'vitest';
import { describeSession } from './session-line.js';

describe('describeSession', () => {
  const id = '6f1c1e9e-5b9a-4b0e-9a53-2f8d1c3b7a10';

  it('names the session and how to ask in it again', () => {
    expect(describeSession(id)).toBe(
      `Session ${id} · ask a follow-up with: cohort ask --session ${id} "<question>"`,
    );
  });

  it('offers a new session when the question was asked in none', () => {
    for (const none of [undefined, 'anonymous'])
      expect(describeSession(none, () => id)).toBe(
        `Not kept in a session · to ask follow-ups, ask in one: cohort ask --session ${id} "<question>" (or use cohort chat)`,
      );
    // A real ID each time, one `--session` accepts.
    expect(describeSession(undefined)).toMatch(/--session [0-9a-f-]{36} /);
  });
});
