import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CliIo } from './command.js';
import { SHORT_RUN_V8_FLAGS, useCliTieringSettings } from './tiering-settings.js';

const run = promisify(execFile);

const setFlags = vi.hoisted(() => vi.fn());
vi.mock('node:v8', async (importOriginal) => ({
  ...(await importOriginal<typeof import('node:v8')>()),
  setFlagsFromString: setFlags,
}));

const quietIo = (): CliIo =>
  ({
    cwd: process.cwd(),
    env: {},
    isTTY: false,
    stdout: () => undefined,
    stderr: () => undefined,
  }) as unknown as CliIo;

afterEach(() => setFlags.mockClear());

describe('the short commands’ tiering settings', () => {
  it('are flags this Node’s V8 knows (a renamed flag fails here, not silently in cohort)', async () => {
    for (const flag of SHORT_RUN_V8_FLAGS) {
      const { stderr } = await run(process.execPath, [flag, '-e', '0']);
      expect(stderr).toBe('');
    }
  });

  it('are set for `cohort ingest` alone', () => {
    const set: string[] = [];
    useCliTieringSettings('ingest', (flag) => set.push(flag));
    useCliTieringSettings('serve', (flag) => set.push(flag));
    useCliTieringSettings('eval', (flag) => set.push(flag));
    expect(set).toEqual([...SHORT_RUN_V8_FLAGS]);
  });

  it('are set by `main` before `cohort ingest` runs, and not before `cohort agents`', async () => {
    const { main } = await import('./main.js');
    await main(['agents', '--help'], quietIo());
    expect(setFlags.mock.calls.flat()).not.toContain(SHORT_RUN_V8_FLAGS[0]);
    await main(['ingest', '--help'], quietIo());
    expect(setFlags.mock.calls.flat()).toEqual(expect.arrayContaining([...SHORT_RUN_V8_FLAGS]));
    // Loading the two commands' modules through the test's transform takes seconds under load.
  }, 90_000);
});
