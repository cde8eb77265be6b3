import { describe, expect, it } from 'vitest';
import { startLineMatcher } from './line-matcher.js';

describe('startLineMatcher', () => {
  it('counts the time spent matching, not the round trips of many small files', async () => {
    // A grep of a plain word over 100,000 files failed after 5 s of messages to and from the
    // worker, saying the pattern backtracked. Here the round trips alone outlast the budget
    // several times over, while matching 'zzqqxx' against one short line takes microseconds.
    const budgetMs = 50;
    const matcher = startLineMatcher('zzqqxx', '', { budgetMs });
    try {
      const started = performance.now();
      let calls = 0;
      while (performance.now() - started < 4 * budgetMs || calls < 200) {
        expect(await matcher.match('a short line of a small file\nand another', 10)).toEqual([]);
        calls += 1;
      }
      expect(await matcher.match('zzqqxx here', 10)).toEqual([0]);
    } finally {
      await matcher.close();
    }
  });

  it('still stops a pattern that backtracks past the budget', async () => {
    const matcher = startLineMatcher('(a+)+$', '', { budgetMs: 300 });
    try {
      await expect(matcher.match(`${'a'.repeat(40)}!`, 10)).rejects.toMatchObject({
        code: 'timeout',
      });
    } finally {
      await matcher.close();
    }
  });
});
