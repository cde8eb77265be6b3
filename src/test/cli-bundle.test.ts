import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureTestCli } from './cli-bundle.js';

const run = promisify(execFile);
const RUN_BUNDLE = process.env.COHORT_TEST_CLI;

afterEach(() => {
  process.env.COHORT_TEST_CLI = RUN_BUNDLE;
});

describe('ensureTestCli, for the fuzzer and the soak run outside vitest', () => {
  it('bundles a CLI that starts when no test run made one', async () => {
    // `npx tsx scripts/fuzz-http.ts` stopped here: "COHORT_TEST_CLI is unset".
    delete process.env.COHORT_TEST_CLI;
    const root = mkdtempSync(join(tmpdir(), 'cli-bundle-'));
    await ensureTestCli(root);
    const bundle = process.env.COHORT_TEST_CLI ?? '';
    expect(bundle.startsWith(root)).toBe(true);
    const { stdout } = await run(process.execPath, [bundle, '--help']);
    expect(stdout).toContain('Usage: cohort <command>');
  });

  it("keeps the test run's own bundle", async () => {
    const root = mkdtempSync(join(tmpdir(), 'cli-bundle-'));
    await ensureTestCli(root);
    expect(process.env.COHORT_TEST_CLI).toBe(RUN_BUNDLE);
  });
});
