import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isInsideAny, resolveDenyPaths } from './deny-paths.js';

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
  it('finds a bare name at any depth, but not inside node_modules or through symlinked folders', () => {
    expect(resolveDenyPaths(['.env'], { workspace, home })).toEqual([
      join(workspace, '.env'),
      join(workspace, 'api', 'config', '.env'),
    ]);
  });

  it('masks a workspace reached through a symlink where it is named, as well as where it is', () => {
    // A clone whose folder is a symlink (/home/me/proj → /data/proj) is mounted at the named path:
    // the mask on the real .env left `cat .env` printing it there (found by a clone whose
    // node_modules is a symlink, where the sandbox tests make their workspaces).
    const named = join(base, 'named-repo');
    symlinkSync(workspace, named);
    const paths = resolveDenyPaths(['.env'], { workspace: named, home });
    expect(paths).toEqual(
      expect.arrayContaining([
        join(workspace, '.env'),
        join(named, '.env'),
        join(named, 'api', 'config', '.env'),
      ]),
    );
  });

  it('resolves ~/ and paths with a slash literally, dropping those that do not exist', () => {
    expect(
      resolveDenyPaths(['~/.ssh', '~/.aws', 'api/config/.env', 'api/.env'], { workspace, home }),
    ).toEqual([join(workspace, 'api', 'config', '.env'), join(home, '.ssh')].sort());
  });

  it('tells whether a path is a denied entry or inside one', () => {
    expect(isInsideAny(join(home, '.ssh', 'id'), [join(home, '.ssh')])).toBe(true);
    expect(isInsideAny(join(home, '.sshx'), [join(home, '.ssh')])).toBe(false);
  });
});
