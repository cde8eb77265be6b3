import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hardLinksOf } from './deny-hard-links.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-links-'));
const workspace = join(base, 'repo');
const secrets = join(base, 'home', '.ssh');
const elsewhere = join(base, 'elsewhere');
for (const dir of [
  join(workspace, 'docs', 'deep'),
  join(workspace, 'node_modules', 'pkg'),
  join(workspace, '.git'),
  secrets,
  elsewhere,
])
  mkdirSync(dir, { recursive: true });
writeFileSync(join(workspace, '.env'), 'SECRET=1');
writeFileSync(join(secrets, 'id_ed25519'), 'PRIVATE KEY');
writeFileSync(join(workspace, 'plain.txt'), 'plain');
linkSync(join(workspace, '.env'), join(workspace, 'docs', 'deep', 'notes.txt'));
linkSync(join(workspace, '.env'), join(workspace, 'node_modules', 'pkg', 'env.txt'));
linkSync(join(secrets, 'id_ed25519'), join(workspace, '.git', 'key'));
// Outside the workspace, and under a symlinked folder: neither is a name the workspace gives it.
linkSync(join(workspace, '.env'), join(elsewhere, 'copy.txt'));
symlinkSync(elsewhere, join(workspace, 'linked'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('hardLinksOf', () => {
  it("finds a denied file's other names at any depth, node_modules and .git included", async () => {
    expect((await hardLinksOf([join(workspace, '.env'), secrets], workspace)).sort()).toEqual(
      [
        join(workspace, '.env'),
        join(workspace, '.git', 'key'),
        join(workspace, 'docs', 'deep', 'notes.txt'),
        join(workspace, 'node_modules', 'pkg', 'env.txt'),
      ].sort(),
    );
  });

  it('looks for nothing when no denied file has another name', async () => {
    expect(await hardLinksOf([join(workspace, 'plain.txt')], workspace)).toEqual([]);
  });
});
