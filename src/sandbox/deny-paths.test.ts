import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DENY_SEARCH_MAX_ENTRIES, isInsideAny, resolveDenyPaths } from './deny-paths.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-deny-'));
const workspace = join(base, 'repo');
const home = join(base, 'home');
const elsewhere = join(base, 'elsewhere');
for (const dir of [
  join(workspace, 'api', 'config'),
  join(workspace, 'node_modules', 'pkg'),
  join(home, '.ssh'),
  elsewhere,
])
  mkdirSync(dir, { recursive: true });
for (const file of [
  join(workspace, '.env'),
  join(workspace, 'api', 'config', '.env'),
  join(workspace, 'node_modules', 'pkg', '.env'),
  join(elsewhere, '.env'),
])
  writeFileSync(file, 'SECRET=1');
// A symlinked folder is not followed: what it points at is outside the workspace.
symlinkSync(elsewhere, join(workspace, 'linked'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveDenyPaths', () => {
  it('finds a bare name at any depth, but not inside node_modules or through symlinked folders', async () => {
    expect(await resolveDenyPaths(['.env'], { workspace, home })).toEqual([
      join(workspace, '.env'),
      join(workspace, 'api', 'config', '.env'),
    ]);
  });

  it('masks a workspace reached through a symlink where it is named, as well as where it is', async () => {
    // A clone whose folder is a symlink (/home/me/proj → /data/proj) is mounted at the named path:
    // the mask on the real .env left `cat .env` printing it there (found by a clone whose
    // node_modules is a symlink, where the sandbox tests make their workspaces).
    const named = join(base, 'named-repo');
    symlinkSync(workspace, named);
    const paths = await resolveDenyPaths(['.env'], { workspace: named, home });
    expect(paths).toEqual(
      expect.arrayContaining([
        join(workspace, '.env'),
        join(named, '.env'),
        join(named, 'api', 'config', '.env'),
      ]),
    );
  });

  it('resolves ~/ and paths with a slash literally, dropping those that do not exist', async () => {
    expect(
      await resolveDenyPaths(['~/.ssh', '~/.aws', 'api/config/.env', 'api/.env'], {
        workspace,
        home,
      }),
    ).toEqual([join(workspace, 'api', 'config', '.env'), join(home, '.ssh')].sort());
  });

  it('finds a bare name past the bounded search in a tree larger than it reads', async () => {
    // The search stopped at DENY_SEARCH_MAX_ENTRIES and hid nothing past it: a command that made
    // that many files first (or a large repository) left services/api/.env readable by bash.
    const big = join(base, 'big');
    const filler = join(big, 'zz-filler');
    mkdirSync(filler, { recursive: true });
    mkdirSync(join(big, 'services', 'api'), { recursive: true });
    writeFileSync(join(big, 'services', 'api', '.env'), 'SECRET=1');
    for (let n = 0; n <= DENY_SEARCH_MAX_ENTRIES; n += 1) writeFileSync(join(filler, `f${n}`), '');
    expect(await resolveDenyPaths(['.env'], { workspace: big, home })).toEqual([
      join(big, 'services', 'api', '.env'),
    ]);
  }, 120_000);

  it('tells whether a path is a denied entry or inside one', () => {
    expect(isInsideAny(join(home, '.ssh', 'id'), [join(home, '.ssh')])).toBe(true);
    expect(isInsideAny(join(home, '.sshx'), [join(home, '.ssh')])).toBe(false);
  });
});
