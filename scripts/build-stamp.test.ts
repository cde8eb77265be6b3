import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

// `prepare` runs `build-stamp.mjs current || npm run build`: the first `npx cohort` in a clone ran
// the whole build a second time (npm installs the clone into its npx cache, running `prepare`).
const SCRIPT = fileURLToPath(new URL('build-stamp.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cohort-build-stamp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  promisify(execFile)(process.execPath, [SCRIPT, ...args, '--root', dir]).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

beforeEach(() => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src', 'cli'), { recursive: true });
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'package.json'), '{"name":"x"}');
  writeFileSync(join(dir, 'src', 'cli', 'main.ts'), 'export const a = 1;');
});

describe('build-stamp.mjs', () => {
  it('calls dist/ current only after a build wrote the stamp of the inputs as they are', async () => {
    expect((await run('current')).code).toBe(1);
    expect((await run('write')).code).toBe(0);
    const current = await run('current');
    expect(current.code).toBe(0);
    expect(current.stdout).toContain('not built again');
  });

  it('calls dist/ stale when a source is edited, added or removed, or package.json changes', async () => {
    const stale = async (change: () => void) => {
      await run('write');
      change();
      return (await run('current')).code;
    };
    expect(
      await stale(() => writeFileSync(join(dir, 'src', 'cli', 'main.ts'), 'export const a = 2;')),
    ).toBe(1);
    expect(await stale(() => writeFileSync(join(dir, 'src', 'new.ts'), ''))).toBe(1);
    expect(await stale(() => unlinkSync(join(dir, 'src', 'new.ts')))).toBe(1);
    expect(await stale(() => writeFileSync(join(dir, 'package.json'), '{"name":"y"}'))).toBe(1);
    expect(await stale(() => undefined)).toBe(0);
  });

  it('answers an unknown command or flag with its usage, not a stack', async () => {
    const unknown = await run('--verbose');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^build-stamp: Unknown option '--verbose'.*\nusage: /);
    expect(unknown.stderr).not.toContain('    at ');
    expect((await run('rebuild')).stderr).toMatch(/^usage: node scripts\/build-stamp\.mjs/);
  });
});
