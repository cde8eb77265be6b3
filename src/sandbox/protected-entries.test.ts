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
        const moved = guarded.quarantine();
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
});
