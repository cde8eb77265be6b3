import { lstatSync, type BigIntStats } from 'node:fs';
import type { FileStatRecord } from '../../store/index.js';

/**
 * How long before an ingestion's start a file's last change must be for its stats to vouch for
 * its text. A file changed within it may have been changed again, after it was read, within the
 * same tick of the file system's clock, leaving the same size and times (git's "racily clean"
 * entries). Linux stamps files with a clock that ticks every few milliseconds, FAT every 2 s; a
 * network file system's server keeps its own clock.
 */
export const RACY_MARGIN_NS = 3_000_000_000n;

/** The stats of `file` itself (a symbolic link's own, not followed), or undefined if it has none. */
export function fileStatOf(file: string): BigIntStats | undefined {
  try {
    return lstatSync(file, { bigint: true });
  } catch {
    // Gone or unreadable: reading it reports why.
    return undefined;
  }
}

/**
 * What a file's record must equal for its text to count as unchanged: size, modification and
 * change times in nanoseconds, inode and device (a file replaced, renamed over or copied in has
 * another inode or change time), and `scheme`, what the text's hash depends on besides the text
 * (its parser's version): a new parser reads every file it changed again.
 */
export function statKey(stats: BigIntStats, scheme: string): string {
  return `${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.ino}:${stats.dev}:${scheme}`;
}

/** Whether a file with `stats`, seen by an ingestion started at `startedNs`, changed too late to vouch for. */
export function isRacy(stats: BigIntStats, startedNs: bigint): boolean {
  const changed = stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs;
  return changed >= startedNs - RACY_MARGIN_NS;
}

/**
 * Whether `record` vouches that the regular file with `stats` still holds the text it was
 * recorded with, at `nowNs`: same {@link statKey}, not changed too close to when the record was
 * made ({@link isRacy}), and made no later than now (a clock set back since may stamp a new
 * change with the times of an old one).
 */
export function statVouches(
  record: FileStatRecord | undefined,
  stats: BigIntStats | undefined,
  scheme: string,
  nowNs: bigint,
): boolean {
  if (!record || !stats?.isFile()) return false;
  if (record.seenNs > nowNs) return false;
  return record.stat === statKey(stats, scheme) && !isRacy(stats, record.seenNs);
}

/** Nanoseconds since the epoch, by the wall clock (the one files are stamped with). */
export function wallClockNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}
