import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRIES_PER_TURN, walkFolders } from './walk-folders.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-walk-'));
const root = join(base, 'tree');
const elsewhere = join(base, 'elsewhere');
for (const dir of [join(root, 'a', 'b'), join(root, 'skipped', 'inner'), elsewhere])
  mkdirSync(dir, { recursive: true });
for (const file of [
  join(root, 'top.txt'),
  join(root, 'a', 'b', 'deep.txt'),
  join(root, 'skipped', 'inner', 'hidden.txt'),
  join(elsewhere, 'outside.txt'),
])
  writeFileSync(file, '');
symlinkSync(elsewhere, join(root, 'linked'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('walkFolders', () => {
  it('visits every entry of the folders it enters, a symlinked folder as an entry only', async () => {
    const seen: string[] = [];
    await walkFolders(root, (path, entry) => {
      seen.push(relative(root, path));
      return entry.name !== 'skipped';
    });
    expect(seen.sort()).toEqual(['a', 'a/b', 'a/b/deep.txt', 'linked', 'skipped', 'top.txt']);
  });

  it('waits for a visit that answers later before deciding to enter', async () => {
    const seen: string[] = [];
    await walkFolders(root, async (path) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push(relative(root, path));
      return !path.endsWith('b');
    });
    expect(seen.sort()).toEqual([
      'a',
      'a/b',
      'linked',
      'skipped',
      'skipped/inner',
      'skipped/inner/hidden.txt',
      'top.txt',
    ]);
  });

  it('passes over a root that cannot be read', async () => {
    const seen: string[] = [];
    await walkFolders(join(base, 'missing'), (path) => seen.push(path) > 0);
    await walkFolders(join(root, 'top.txt'), (path) => seen.push(path) > 0);
    expect(seen).toEqual([]);
  });

  it('lets the event loop turn while a large folder is walked', async () => {
    const wide = join(base, 'wide');
    mkdirSync(wide);
    for (let n = 0; n <= ENTRIES_PER_TURN; n += 1) writeFileSync(join(wide, `f${n}`), '');
    // Read in one listing, the entries are visited with no I/O between them: only the walk's
    // own turns let a callback queued at the first entry run before the last.
    let turned = false;
    let visited = 0;
    let turnedByLast = false;
    await walkFolders(wide, () => {
      visited += 1;
      if (visited === 1) setImmediate(() => (turned = true));
      if (visited === ENTRIES_PER_TURN + 1) turnedByLast = turned;
      return false;
    });
    expect(visited).toBe(ENTRIES_PER_TURN + 1);
    expect(turnedByLast).toBe(true);
  }, 120_000);
});
