import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: every test run writes its temporary files under one folder of its own,
 * removed when the run ends. Tests make hundreds of data folders (PGlite, books, locks, killed
 * first starts) and many do not remove theirs — a killed child cannot; runs on one machine had
 * filled a 250 GB disk with them, and the next run failed on "no space left on device".
 *
 * os.tmpdir() reads TMPDIR on every call, and the test workers and the processes they start
 * inherit this environment, so setting it here reaches all of them.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'cohort-test-'));
  // Open to every user as /tmp is (sticky, so none removes another's files): tests run
  // PostgreSQL and the sandbox as users who are not root, and mkdtemp makes the folder root's only.
  chmodSync(root, 0o1777);
  process.env.TMPDIR = root;
  process.env.COHORT_TEST_TEMP_ROOT = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
  };
}
