import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DENY_SEARCH_MAX_ENTRIES } from './deny-paths.js';
import { guardProtectedEntries } from './protected-entries.js';

const cache = join(process.cwd(), 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });

describe('guardProtectedEntries: quarantine', () => {
  it('leaves a subfolder entry that was there before the run, even one the bounded search missed then', async () => {
    // The search before the run stops after DENY_SEARCH_MAX_ENTRIES entries; a run that removed
    // files let the search after it reach further, and the user's own pkg/.git it found there,
    // "not there before", was renamed to .git.blocked-by-cohort.
    const root = mkdtempSync(join(cache, 'cohort-quarantine-'));
    try {
      const big = join(root, 'big');
      mkdirSync(join(big, 'pkg', '.git'), { recursive: true });
      mkdirSync(join(root, 'older'));
      writeFileSync(join(big, 'pkg', '.git', 'HEAD'), 'ref: refs/heads/main\n');
      const created = Date.now();
      for (let i = 0; i < DENY_SEARCH_MAX_ENTRIES; i += 1) writeFileSync(join(big, `f${i}`), '');
      while (Date.now() < created + 300) await new Promise((done) => setTimeout(done, 50));
      const guarded = guardProtectedEntries(root);
      try {
        // The run: removes a few files, and creates a protected name in a subfolder.
        for (let i = 0; i < 100; i += 1) unlinkSync(join(big, `f${i}`));
        mkdirSync(join(root, 'new'));
        writeFileSync(join(root, 'new', '.mcp.json'), '{}');
        // A folder from before the run moved into place is the run's too.
        renameSync(join(root, 'older'), join(root, 'new', '.git'));
        const moved = await guarded.quarantine();
        expect(existsSync(join(big, 'pkg', '.git', 'HEAD'))).toBe(true);
        expect(moved.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
          { path: join('new', '.git'), movedTo: join('new', '.git.blocked-by-cohort') },
          { path: join('new', '.mcp.json'), movedTo: join('new', '.mcp.json.blocked-by-cohort') },
        ]);
      } finally {
        guarded.release();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('finds a protected name a run planted past the search bound, after creating that many entries', async () => {
    // The sweep after the run read at most DENY_SEARCH_MAX_ENTRIES entries: a command that first
    // made 50,000 files in big/ left its big/sub/.mcp.json where the sweep never looked.
    const root = mkdtempSync(join(cache, 'cohort-quarantine-'));
    try {
      const guarded = guardProtectedEntries(root);
      try {
        const big = join(root, 'big');
        mkdirSync(join(big, 'sub'), { recursive: true });
        for (let i = 0; i < DENY_SEARCH_MAX_ENTRIES; i += 1) writeFileSync(join(big, `f${i}`), '');
        writeFileSync(join(big, 'sub', '.mcp.json'), '{}');
        mkdirSync(join(big, 'sub', 'deeper', '.git'), { recursive: true });
        expect((await guarded.quarantine()).map((entry) => entry.path).sort()).toEqual([
          join('big', 'sub', '.mcp.json'),
          join('big', 'sub', 'deeper', '.git'),
        ]);
      } finally {
        guarded.release();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it("moves aside a .git a run planted in a package of node_modules, and leaves the packages' own", async () => {
    // The search does not enter node_modules; a node_modules/x/.git made by a command ran its
    // hooks when the user later ran git in node_modules/x.
    const root = mkdtempSync(join(cache, 'cohort-quarantine-'));
    try {
      mkdirSync(join(root, 'node_modules', 'kept', '.git'), { recursive: true });
      mkdirSync(join(root, 'node_modules', 'x', 'skills'), { recursive: true });
      const created = Date.now();
      while (Date.now() < created + 300) await new Promise((done) => setTimeout(done, 50));
      const guarded = guardProtectedEntries(root);
      try {
        mkdirSync(join(root, 'node_modules', 'x', '.git'));
        mkdirSync(join(root, 'node_modules', '@scope', 'p', '.git'), { recursive: true });
        mkdirSync(join(root, 'app', 'node_modules', 'y', '.git'), { recursive: true });
        expect((await guarded.quarantine()).map((entry) => entry.path).sort()).toEqual([
          join('app', 'node_modules', 'y', '.git'),
          join('node_modules', '@scope', 'p', '.git'),
          join('node_modules', 'x', '.git'),
        ]);
        expect(existsSync(join(root, 'node_modules', 'kept', '.git'))).toBe(true);
        expect(existsSync(join(root, 'node_modules', 'x', 'skills'))).toBe(true);
      } finally {
        guarded.release();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
