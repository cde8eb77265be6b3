import {
  closeSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CohortError } from '../errors/index.js';
import { dataFolderError } from './data-folder.js';
import { writeFullySync } from './durable-file.js';

/** The lock file kept in an embedded data folder while a process has it open. */
export const LOCK_FILE_NAME = 'cohort.lock';

/** Who holds a data folder: written into the lock file as JSON. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When the holding process started (ms since the epoch), to tell a reused pid from the holder. */
  startedAt: number;
  /**
   * The holder's start in clock ticks since boot, from /proc (Linux): unlike `startedAt`, which
   * is read off the wall clock, it does not move when the clock is set (NTP stepping it after a
   * boot or a resume), so a live holder is never taken for a process started at another time.
   */
  startTicks?: number;
  /** The command line of the holder, for the message a second process reads. */
  command: string;
}

/** A held data-folder lock. */
export interface FolderLock {
  readonly path: string;
  /** Removes the lock file; calling it again does nothing. */
  release(): void;
  /**
   * Names `holder` in the lock file instead of this process, in one rename (the folder is never
   * unlocked meanwhile), and lets go of it here: `release` then does nothing. Used by a process
   * that prepared a folder for its parent (`cohort serve`'s first start): the parent, named as
   * the holder, takes the lock over as its own when it opens the folder.
   */
  handOver(holder: LockHolder): void;
}

/**
 * This process as a lock holder: its pid, host, start time and command line (shortened).
 *
 * @example
 * const me = thisLockHolder(); // { pid: 4242, host: 'box', startedAt: …, command: 'cohort serve' }
 */
export function thisLockHolder(): LockHolder {
  const startTicks = osStartTicks(process.pid);
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: processStartedAt(),
    ...(startTicks !== undefined ? { startTicks } : {}),
    command: process.argv
      .slice(1)
      .map((arg) => arg.replace(/^.*[\\/](cohort(\.js)?)$/, '$1'))
      .join(' ')
      .slice(0, 200),
  };
}

/** Folders locked by this process (real paths): a second open in the same process is refused too. */
const heldHere = new Map<string, string>();

/** How far a recorded start time may drift from the one the OS reports and still be the same process. */
const START_TIME_TOLERANCE_MS = 5_000;

function processStartedAt(): number {
  return Date.now() - Math.round(process.uptime() * 1000);
}

/** A process's start in clock ticks since boot from /proc (Linux), or undefined where unreadable. */
function osStartTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ')'; starttime is field 22.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isSafeInteger(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** A process's start time from /proc (Linux), or undefined where that cannot be read. */
function osStartTime(pid: number): number | undefined {
  try {
    const ticks = osStartTicks(pid);
    const boot = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    if (ticks === undefined || !boot) return undefined;
    // USER_HZ is 100 on every mainstream Linux build.
    return Number(boot) * 1000 + ticks * 10;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !hasExited(pid);
}

/**
 * True when `pid` has exited but is not reaped yet (a zombie, state `Z` or `X` in /proc on Linux):
 * `kill(pid, 0)` still succeeds for it, and a harness that kills `cohort serve` with SIGKILL and
 * starts it again before waiting for its child would otherwise find the folder held.
 */
function hasExited(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

/**
 * True when the holder certainly no longer runs: same host, and its pid is gone, is this very
 * process (a pid reused after a restart, e.g. pid 1 in a container), or belongs to a process that
 * started at another time. A holder on another host is never taken as stale.
 */
function isStale(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return true;
  if (!isAlive(holder.pid)) return true;
  if (holder.startTicks !== undefined) {
    const ticks = osStartTicks(holder.pid);
    if (ticks !== undefined) return ticks !== holder.startTicks;
  }
  const started = osStartTime(holder.pid);
  return started !== undefined && Math.abs(started - holder.startedAt) > START_TIME_TOLERANCE_MS;
}

/** After this long, an unreadable lock file is taken for the leftover of a crashed process. */
const UNREADABLE_LOCK_MAX_AGE_MS = 10_000;

function ageOf(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}

function readLockText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function parseHolder(text: string | undefined): LockHolder | undefined {
  try {
    const parsed = JSON.parse(text ?? '') as Partial<LockHolder>;
    // Only what cohort writes: a pid of 0 or below signals a process group (kill(-1, 0) succeeds,
    // so -1 was a live holder for ever), and a start time that is not a number named no time
    // ("Invalid time value" from the message). Anything else reads as an unreadable lock.
    if (
      !Number.isSafeInteger(parsed.pid) ||
      (parsed.pid ?? 0) <= 0 ||
      typeof parsed.host !== 'string' ||
      (parsed.startedAt !== undefined &&
        (typeof parsed.startedAt !== 'number' ||
          Number.isNaN(new Date(parsed.startedAt).getTime())))
    )
      return undefined;
    return {
      pid: parsed.pid as number,
      host: parsed.host,
      startedAt: Number(parsed.startedAt ?? 0),
      ...(typeof parsed.startTicks === 'number' ? { startTicks: parsed.startTicks } : {}),
      command: String(parsed.command ?? ''),
    };
  } catch {
    return undefined;
  }
}

function readHolder(path: string): LockHolder | undefined {
  return parseHolder(readLockText(path));
}

/** After this long, a takeover marker is the leftover of a process that died taking a lock over. */
const TAKEOVER_MAX_AGE_MS = 10_000;

/**
 * Removes the stale lock file at `path`, but only if it still holds `staleText`: two processes
 * that both found the same stale lock must not both take it over (the slower one would delete
 * the lock the faster one had just written, and both would open the folder). The check and the
 * removal happen under `cohort.lock.takeover`, created exclusively. Returns false when another
 * process is taking the lock over right now.
 */
function removeStaleLock(path: string, staleText: string | undefined): boolean {
  const marker = `${path}.takeover`;
  let fd: number;
  try {
    fd = openSync(marker, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (ageOf(marker) > TAKEOVER_MAX_AGE_MS) unlinkQuietly(marker);
    return false;
  }
  try {
    // Gone already (another process removed it): nothing to remove, the exclusive create decides.
    if (readLockText(path) === staleText) unlinkQuietly(path);
  } finally {
    closeSync(fd);
    unlinkQuietly(marker);
  }
  return true;
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Blocks this thread for `ms` (lock takeover is synchronous and rare). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function heldError(dataDir: string, holder: LockHolder | undefined): CohortError {
  const who = holder
    ? `process ${holder.pid} on ${holder.host}${holder.command ? ` (${holder.command})` : ''}, started ${new Date(holder.startedAt).toISOString()}`
    : 'another process';
  return new CohortError(
    'conflict',
    `The data folder "${dataDir}" is in use by ${who}. An embedded store is opened by one process at a time: stop that process, use another --data-dir, or share one store between processes with PostgreSQL (set DATABASE_URL).`,
    { file: dataDir },
  );
}

/**
 * Takes the one-writer lock of an embedded data folder (which must exist): creates
 * `cohort.lock` holding this process's pid, host, start time and command. A lock left by a process
 * that is gone is taken over; one held by a live process (or by this process already) is a
 * `conflict` error naming the holder and pointing at PostgreSQL for sharing. The lock is removed by
 * `release()` and, failing that, when the process exits.
 *
 * @example
 * const lock = acquireFolderLock('.cohort');
 * try { ... } finally { lock.release(); }
 */
export function acquireFolderLock(
  dataDir: string,
  options: {
    /** The command the lock names, instead of this process's (a helper process says whose). */
    command?: string;
  } = {},
): FolderLock {
  const key = realpathSync(dataDir);
  if (heldHere.has(key)) {
    throw heldError(dataDir, {
      pid: process.pid,
      host: hostname(),
      startedAt: processStartedAt(),
      command: 'this process has it open already',
    });
  }
  const path = join(dataDir, LOCK_FILE_NAME);
  const me: LockHolder = {
    ...thisLockHolder(),
    ...(options.command !== undefined ? { command: options.command.slice(0, 200) } : {}),
  };
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw dataFolderError(dataDir, 'write in', error);
      const text = readLockText(path);
      const holder = parseHolder(text);
      // A lock file that cannot be read is being written right now, unless it is old: a process
      // that died between creating and writing it.
      const stale = holder ? isStale(holder) : ageOf(path) > UNREADABLE_LOCK_MAX_AGE_MS;
      if (attempt > 20 || !stale) throw heldError(dataDir, holder);
      // Another process is taking it over at this moment: wait for it, then look again.
      if (!removeStaleLock(path, text)) pause(10);
      continue;
    }
    try {
      writeFullySync(fd, JSON.stringify(me));
    } catch (error) {
      // A full disk (or a file size limit): the file exists but says nothing, and left there it
      // made the next start say the folder was in use by another process.
      closeSync(fd);
      unlinkQuietly(path);
      throw dataFolderError(dataDir, 'write in', error);
    }
    closeSync(fd);
    break;
  }
  heldHere.set(key, path);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldHere.delete(key);
    process.removeListener('exit', release);
    // Only remove the file if it is still ours (it may have been taken over as stale meanwhile).
    const holder = readHolder(path);
    if (holder?.pid === me.pid && holder.startedAt === me.startedAt && holder.host === me.host) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to release.
      }
    }
  };
  process.once('exit', release);
  const handOver = (holder: LockHolder) => {
    if (released) return;
    const temporary = `${path}.${process.pid}.handover`;
    writeFileSync(temporary, JSON.stringify(holder), { flush: true });
    renameSync(temporary, path);
    released = true;
    heldHere.delete(key);
    process.removeListener('exit', release);
  };
  return { path, release, handOver };
}
