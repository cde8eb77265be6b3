import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';

describe('the test run’s temporary folder', () => {
  it('holds what tests and the processes they start write to the temporary folder', () => {
    const root = process.env.COHORT_TEST_TEMP_ROOT;
    expect(root).toMatch(/cohort-test-/);
    expect(tmpdir()).toBe(root);
    const child = spawnSync(
      process.execPath,
      ['-e', 'process.stdout.write(require("os").tmpdir())'],
      {
        encoding: 'utf8',
      },
    );
    expect(child.stdout).toBe(root);
    // Users who are not root (PostgreSQL, the sandbox) write there too, as in /tmp.
    expect(statSync(tmpdir()).mode & 0o7777).toBe(0o1777);
  });
});
