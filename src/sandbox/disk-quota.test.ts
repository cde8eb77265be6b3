import { describe, expect, it } from 'vitest';
import { DISK_RESERVE, diskLimitHit, diskLimitMessage } from './disk-quota.js';

const MB = 1024 * 1024;
const bsize = 4096;
/** A file system of 100 GB and 10 M inodes with `freeMb` and `freeFiles` left. */
const usage = (freeMb: number, freeFiles: number) => ({
  bsize,
  blocks: (100 * 1024 * MB) / bsize,
  bfree: (freeMb * MB) / bsize,
  bavail: (freeMb * MB) / bsize,
  files: 10_000_000,
  ffree: freeFiles,
});
const limits = { maxDiskMb: 100, maxFiles: 1000 };

describe('diskLimitHit', () => {
  it('passes a call that stays within its growth limits', () => {
    expect(diskLimitHit(usage(50_000, 5e6), usage(49_950, 5e6 - 999), limits)).toBeUndefined();
    // Space others freed meanwhile is no growth.
    expect(diskLimitHit(usage(50_000, 5e6), usage(60_000, 5e6), limits)).toBeUndefined();
  });

  it('stops a call that grows the disk past maxDiskMb, or makes more than maxFiles', () => {
    expect(diskLimitHit(usage(50_000, 5e6), usage(49_899, 5e6), limits)).toBe('bytes');
    expect(diskLimitHit(usage(50_000, 5e6), usage(50_000, 5e6 - 1001), limits)).toBe('files');
  });

  it('stops a call that takes the disk under its reserve, unless it started under it', () => {
    const wide = { maxDiskMb: 1_000_000, maxFiles: 1e9 };
    expect(diskLimitHit(usage(1100, 5e6), usage(DISK_RESERVE.mb - 1, 5e6), wide)).toBe('reserve');
    expect(diskLimitHit(usage(50_000, 200_000), usage(50_000, 99_999), wide)).toBe('reserve');
    // Already nearly full at the start: the growth limits alone apply, a small write still works.
    expect(diskLimitHit(usage(500, 5e6), usage(490, 5e6), wide)).toBeUndefined();
    // A file system that counts no inodes (btrfs) has no inode reserve.
    const noInodes = { ...usage(50_000, 0), files: 0 };
    expect(diskLimitHit(noInodes, noInodes, wide)).toBeUndefined();
  });
});

describe('diskLimitMessage', () => {
  it('names the setting and its value', () => {
    expect(diskLimitMessage('bytes', 'the command', limits)).toBe(
      '[killed: the command wrote more than sandbox.maxDiskMb (100 MB) to the disk]',
    );
    expect(diskLimitMessage('files', 'the code', limits)).toContain('sandbox.maxFiles (1000)');
    expect(diskLimitMessage('reserve', 'the command', limits)).toContain('almost full');
  });
});
