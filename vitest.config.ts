import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run at once. Vitest's default is one fewer than the cores, which is one on a 2-core
 * machine: the suite ran file after file there, the second core idle whenever a test waited on a
 * child process, a PGlite thread, the disk or a timer (much of this suite). Two files at a time
 * took a 2-core run of src/routing and src/config from 244 s to 166 s; larger machines keep the
 * default.
 */
const MAX_TEST_FILES_AT_ONCE = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  // `cohort serve`'s first start in a test process forks the run's bundled first-start child
  // (src/test/cli-bundle.ts, which sets the variable) instead of the sources through tsx.
  define: { COHORT_FIRST_START_CHILD: 'process.env.COHORT_TEST_FIRST_START_CHILD' },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['src/test/temp-root.ts', 'src/test/cli-bundle.ts'],
    maxWorkers: MAX_TEST_FILES_AT_ONCE,
  },
});
