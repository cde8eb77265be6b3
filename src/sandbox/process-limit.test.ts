import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProcessLimit, sweepStaleCgroups } from './process-limit.js';

const limit = createProcessLimit(16);
limit.release();
const parent = limit.kind === 'cgroup' ? dirname(dirname(limit.procsFiles[0] ?? '')) : undefined;

describe('the cgroups of sandboxed calls', () => {
  // A cohort killed mid-call (kill -9) cannot release its call's cgroups: each stayed for good.
  it.skipIf(!parent)('are removed once the cohort that made them is gone', () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const stale = join(parent as string, `cohort-${dead}-0badcafe`);
    const living = join(parent as string, `cohort-${process.ppid}-0badcafe`);
    mkdirSync(stale);
    mkdirSync(living);
    try {
      expect(sweepStaleCgroups(parent as string, 60_000)).not.toContain(stale); // too recent yet
      const removed = sweepStaleCgroups(parent as string, 0);
      expect(removed).toContain(stale);
      expect(removed).not.toContain(living);
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(living)).toBe(true);
    } finally {
      for (const dir of [stale, living]) if (existsSync(dir)) rmdirSync(dir);
    }
  });
});
