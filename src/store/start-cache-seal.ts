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
 * `detached`). Anything that opens the engine (a cohort that keeps no seal, an older version,
 * PGlite itself) changes PostgreSQL's files, even only to close them, and so breaks the seal.
 */
export { START_CACHE_SEAL_FILE };

/** Bumped when the seal's layout changes: other layouts are not read. */
const FORMAT = 1;

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
 * store's. Written whole or not at all; without a start cache there is nothing to seal.
 */
export function sealStartCache(dataDir: string): void {
  const cache = cacheIdentity(dataDir);
  if (!cache) return;
  // On a file system that keeps whole seconds (FAT, HFS+, some network mounts), a write in the
  // same second as the engine's last one would leave every time as it was: nothing is sealed.
  const folder = fingerprintOf(dataDir);
  if (!folder.fine) return;
  writeFileDurably(
    dataDir,
    START_CACHE_SEAL_FILE,
    JSON.stringify({ format: FORMAT, cache, folder: folder.hash }),
  );
}

/**
 * True when `dataDir`'s start cache is sealed and neither it nor any of PGlite's files changed
 * since: the cache is then the store's. Call it with the folder lock held.
 */
export function isStartCacheSealed(dataDir: string): boolean {
  let seal: { format?: unknown; cache?: unknown; folder?: unknown };
  try {
    seal = JSON.parse(readFileSync(join(dataDir, START_CACHE_SEAL_FILE), 'utf8')) as typeof seal;
  } catch {
    return false;
  }
  if (seal?.format !== FORMAT || typeof seal.cache !== 'string') return false;
  if (seal.cache !== cacheIdentity(dataDir)) return false;
  try {
    return seal.folder === folderFingerprint(dataDir);
  } catch {
    return false;
  }
}
