import { statfs, statfsSync, type StatsFs } from 'node:fs';
import type { SandboxSettings } from '../config/index.js';

/** Which disk bound a call reached: bytes written, files made, or the disk's last free reserve. */
export type DiskLimitHit = 'bytes' | 'files' | 'reserve';

/**
 * The bounds one sandboxed call's writes to the workspace's file system are held to: the
 * settings' own `sandbox.maxDiskMb` (most the used space may grow during the call, in MB) and
 * `sandbox.maxFiles` (most the used inodes may grow), so sandbox settings are limits as they are.
 */
export type DiskLimits = Pick<SandboxSettings, 'maxDiskMb' | 'maxFiles'>;

/**
 * What stays free whatever the limits: a call is stopped when it takes the file system's space
 * available to users below 1 GB, or its free inodes below 100,000 (when they were above at its
 * start). Per-call limits alone let 32 calls of one reply fill the disk a call at a time.
 */
export const DISK_RESERVE = { mb: 1024, files: 100_000 };

/** How often the file system is looked at: a call may overshoot by what it writes meanwhile. */
const POLL_MS = 100;

type Usage = Pick<StatsFs, 'bsize' | 'blocks' | 'bfree' | 'bavail' | 'files' | 'ffree'>;

const MB = 1024 * 1024;

/**
 * Which bound `now` passes compared with `start` (two `statfs` of the same file system), or
 * undefined. Used space counts every writer of that file system, so the bound is on the call's
 * growth as the disk sees it, not on one folder: a file system's counters are one `statfs`, where
 * the size of a folder tree is a walk as long as the tree.
 *
 * @example
 * diskLimitHit(before, after, { maxDiskMb: 8192, maxFiles: 500_000 }); // 'bytes'
 */
export function diskLimitHit(
  start: Usage,
  now: Usage,
  limits: DiskLimits,
): DiskLimitHit | undefined {
  const grownBytes = (start.bfree - now.bfree) * now.bsize;
  if (grownBytes > limits.maxDiskMb * MB) return 'bytes';
  if (start.ffree - now.ffree > limits.maxFiles) return 'files';
  const reserveBytes = DISK_RESERVE.mb * MB;
  if (start.bavail * start.bsize > reserveBytes && now.bavail * now.bsize < reserveBytes)
    return 'reserve';
  // A file system without inode counts (btrfs reports 0 files) has no inode reserve to keep.
  if (start.files > 0 && start.ffree > DISK_RESERVE.files && now.ffree < DISK_RESERVE.files)
    return 'reserve';
  return undefined;
}

/** A running look at one file system during a call (see {@link watchDisk}). */
export interface DiskWatch {
  /** The bound reached so far, if any. */
  hit(): DiskLimitHit | undefined;
  stop(): void;
}

/**
 * Watches the file system holding `path` while a call runs and calls `onHit` once when the call
 * passes one of `limits` or the {@link DISK_RESERVE}: the caller then kills the call. A file system
 * `statfs` cannot read is not watched (`hit()` stays undefined).
 *
 * @example
 * const watch = watchDisk('/repo', { maxDiskMb: 8192, maxFiles: 500_000 }, () => stop.abort());
 * // ...run the command...
 * watch.stop();
 */
export function watchDisk(
  path: string,
  limits: DiskLimits,
  onHit: (hit: DiskLimitHit) => void,
): DiskWatch {
  let start: Usage;
  try {
    start = statfsSync(path);
  } catch {
    return { hit: () => undefined, stop: () => undefined };
  }
  let reached: DiskLimitHit | undefined;
  let stopped = false;
  let pending = false;
  const timer = setInterval(() => {
    if (pending || stopped || reached) return;
    pending = true;
    statfs(path, (error, now) => {
      pending = false;
      if (error || stopped || reached) return;
      reached = diskLimitHit(start, now, limits);
      if (reached) onHit(reached);
    });
  }, POLL_MS);
  timer.unref();
  return {
    hit: () => reached,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * What the model reads when `who` (`the command`, `the code`) was killed at a disk bound.
 *
 * @example
 * diskLimitMessage('bytes', 'the command', { maxDiskMb: 64, maxFiles: 1000 });
 * // '[killed: the command wrote more than sandbox.maxDiskMb (64 MB) to the disk]'
 */
export function diskLimitMessage(hit: DiskLimitHit, who: string, limits: DiskLimits): string {
  if (hit === 'bytes')
    return `[killed: ${who} wrote more than sandbox.maxDiskMb (${limits.maxDiskMb} MB) to the disk]`;
  if (hit === 'files')
    return `[killed: ${who} made more than sandbox.maxFiles (${limits.maxFiles}) files on the disk]`;
  return `[killed: ${who} left the disk almost full (under ${DISK_RESERVE.mb} MB or ${DISK_RESERVE.files} files free)]`;
}
