import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI_REGEXP_V8_FLAGS, useCliRegexpSettings } from './regexp-settings.js';

const run = promisify(execFile);

describe('the command line’s regular expression settings', () => {
  it('are flags this Node’s V8 knows (a renamed flag fails here, not silently in cohort)', async () => {
    for (const flag of CLI_REGEXP_V8_FLAGS) {
      const { stderr } = await run(process.execPath, [flag, '-e', '0']);
      expect(stderr).toBe('');
    }
    await expect(run(process.execPath, ['--no-such-v8-flag-here', '-e', '0'])).rejects.toThrow();
  });

  it('are what useCliRegexpSettings sets', () => {
    const set: string[] = [];
    useCliRegexpSettings((flag) => set.push(flag));
    expect(set).toEqual([...CLI_REGEXP_V8_FLAGS]);
  });
});
