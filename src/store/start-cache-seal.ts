import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurably } from './durable-file.js';
import { START_CACHE_FILE, START_CACHE_SEAL_FILE } from './start-cache.js';

/**
 * The seal of a data folder's start cache: written by a process that knew the start cache to be
 * the store's (it confirmed it against the engine, or wrote it from the engine), after the engine
 * closed and before the folder lock was released. It records the start cache file it vouches for
 * and a fingerprint of every file PGlite keeps in the folder. A later process that finds both
 * unchanged knows the engine's files are exactly as they were when the cache was current, so it
 * can answer from the cache without opening the engine at all (see `startCachedStore`'s
 * `detached`). It also lists the sessions the engine holds messages of (as digests; no list past
 * {@link MAX_SEALED_SESSIONS}): a turn in another session needs no history from the engine, and is
 * saved to the session journal (session-journal.ts). Anything that opens the engine (a cohort that keeps no seal, an older version,
 * PGlite itself) changes PostgreSQL's files, even only to close them, and so breaks the seal.
 */
export { START_CACHE_SEAL_FILE };

/** Bumped when the seal's layout changes: other layouts are not read. */
const FORMAT = 2;

/**
 * The most sessions a seal lists. A store holding more (a server's, say) is sealed without the
 * list: every session is then taken to be the engine's, and a turn in one opens the engine.
 */
export const MAX_SEALED_SESSIONS = 1000;

/** How a seal names a session: a digest, so the seal does not repeat the store's session ids. */
const sessionDigest = (sessionId: string) =>
  createHash('sha256').update(sessionId).digest('hex').slice(0, 16);

/**
 * cohort's own files in a data folder (lock, start cache, seal, journal and their temporary
 * files): not PGlite's, so not part of the fingerprint.
 */
const isCohortFile = (name: string) => name.startsWith('cohort');

/**
 * A hash of every file and folder PGlite keeps in `dataDir`: path, kind, size, inode and
 * modification time in nanoseconds. Any write to the engine's files changes it.
 */
export function folderFingerprint(dataDir: string): string {
  return fingerprintOf(dataDir).hash;
}

/** The fingerprint, and whether the file system keeps modification times finer than seconds. */
function fingerprintOf(dataDir: string): { hash: string; fine: boolean } {
  const hash = createHash('sha256');
  let fine = false;
  const walk = (dir: string, relative: string) => {
    const names = readdirSync(dir).sort();
    for (const name of names) {
      if (!relative && isCohortFile(name)) continue;
      const path = join(dir, name);
      const stat = statSync(path, { bigint: true });
      const kind = stat.isDirectory() ? 'd' : stat.isFile() ? 'f' : 'o';
      hash.update(`${relative}${name}\0${kind}\0${stat.size}\0${stat.ino}\0${stat.mtimeNs}\n`);
      if (stat.mtimeNs % 1_000_000_000n !== 0n) fine = true;
      if (kind === 'd') walk(path, `${relative}${name}/`);
    }
  };
  walk(dataDir, '');
  return { hash: hash.digest('hex'), fine };
}

/** Which start cache file a seal vouches for: the file itself, not only its name. */
function cacheIdentity(dataDir: string): string | undefined {
  try {
    const stat = statSync(join(dataDir, START_CACHE_FILE), { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * Seals the start cache of `dataDir` (see {@link START_CACHE_SEAL_FILE}). Call it only with the
 * engine closed and the folder lock still held, and only when the start cache is known to be the
 * store's. `sessions`: every session the engine holds messages of (more is harmless), or
 * undefined when that is not known. Written whole or not at all; without a start cache there is
 * nothing to seal.
 */
export function sealStartCache(dataDir: string, sessions?: readonly string[]): void {
  const cache = cacheIdentity(dataDir);
  if (!cache) return;
  // On a file system that keeps whole seconds (FAT, HFS+, some network mounts), a write in the
  // same second as the engine's last one would leave every time as it was: nothing is sealed.
  const folder = fingerprintOf(dataDir);
  if (!folder.fine) return;
  const listed =
    sessions && sessions.length <= MAX_SEALED_SESSIONS
      ? { sessions: [...new Set(sessions.map(sessionDigest))].sort() }
      : {};
  writeFileDurably(
    dataDir,
    START_CACHE_SEAL_FILE,
    JSON.stringify({ format: FORMAT, cache, folder: folder.hash, ...listed }),
  );
}

/** What a holding seal says of the engine it vouches for (see {@link readStartCacheSeal}). */
export interface StartCacheSeal {
  /**
   * False only when the engine holds no message of `sessionId`; true when it may (it does, or
   * the seal does not list sessions).
   */
  mayHoldSession(sessionId: string): boolean;
}

/**
 * The seal of `dataDir`'s start cache when it holds: the cache is sealed and neither it nor any
 * of PGlite's files changed since, so the cache is the store's. Undefined otherwise. Call it with
 * the folder lock held.
 */
export function readStartCacheSeal(dataDir: string): StartCacheSeal | undefined {
  let seal: { format?: unknown; cache?: unknown; folder?: unknown; sessions?: unknown };
  try {
    seal = JSON.parse(readFileSync(join(dataDir, START_CACHE_SEAL_FILE), 'utf8')) as typeof seal;
  } catch {
    return undefined;
  }
  if (seal?.format !== FORMAT || typeof seal.cache !== 'string') return undefined;
  if (seal.cache !== cacheIdentity(dataDir)) return undefined;
  try {
    if (seal.folder !== folderFingerprint(dataDir)) return undefined;
  } catch {
    return undefined;
  }
  const listed = Array.isArray(seal.sessions) ? new Set<unknown>(seal.sessions) : undefined;
  return { mayHoldSession: (sessionId) => !listed || listed.has(sessionDigest(sessionId)) };
}

/**
 * True when `dataDir`'s start cache is sealed and neither it nor any of PGlite's files changed
 * since: the cache is then the store's. Call it with the folder lock held.
 */
export function isStartCacheSealed(dataDir: string): boolean {
  return readStartCacheSeal(dataDir) !== undefined;
}
