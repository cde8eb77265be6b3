/**
 * The tests' bundle of `cohort` from the sources, made once per run by src/test/cli-bundle.ts:
 * `spawn(process.execPath, [testCli(), 'serve', '--port', '0'])` starts a real cohort process
 * running the current sources without tsx's per-start compile and load.
 *
 * @example
 * spawnSync(process.execPath, [testCli(), 'ask', 'What is a topic?'], { encoding: 'utf8' });
 */
export function testCli(): string {
  const path = process.env.COHORT_TEST_CLI;
  if (!path)
    throw new Error(
      'COHORT_TEST_CLI is unset: run the tests with vitest (globalSetup bundles the CLI)',
    );
  return path;
}
