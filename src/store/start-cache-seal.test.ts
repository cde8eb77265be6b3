import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { invalidateStartCache, START_CACHE_FILE } from './start-cache.js';
import { SESSION_JOURNAL_FILE } from './session-journal.js';
import {
  folderFingerprint,
  isStartCacheSealed,
  MAX_SEALED_SESSIONS,
  readStartCacheSeal,
  sealStartCache,
  START_CACHE_SEAL_FILE,
} from './start-cache-seal.js';
import { TRACE_JOURNAL_FILE } from './trace-journal.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder laid out like PGlite's, with a start cache. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-seal-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'base/5'), { recursive: true });
  writeFileSync(join(dir, 'base/5/16384'), 'chunks');
  writeFileSync(join(dir, 'PG_VERSION'), '17');
  writeFileSync(join(dir, START_CACHE_FILE), '{}');
  return dir;
}

describe('the start cache seal', () => {
  it('holds while nothing of PGlite’s changes, whatever cohort’s own files do', () => {
    const dir = folder();
    sealStartCache(dir);
    expect(isStartCacheSealed(dir)).toBe(true);
    writeFileSync(join(dir, TRACE_JOURNAL_FILE), '{}\n');
    writeFileSync(join(dir, SESSION_JOURNAL_FILE), '{}\n');
    writeFileSync(join(dir, 'cohort.lock'), '{}');
    expect(isStartCacheSealed(dir)).toBe(true);
  });

  it('breaks when a file of the engine is written, even to the same size', () => {
    const dir = folder();
    sealStartCache(dir);
    const before = folderFingerprint(dir);
    writeFileSync(join(dir, 'base/5/16384'), 'CHUNKS');
    expect(folderFingerprint(dir)).not.toBe(before);
    expect(isStartCacheSealed(dir)).toBe(false);
  });

  it('breaks when the engine adds or removes a file', () => {
    const dir = folder();
    sealStartCache(dir);
    writeFileSync(join(dir, 'base/5/16385'), '');
    expect(isStartCacheSealed(dir)).toBe(false);
    sealStartCache(dir);
    rmSync(join(dir, 'base/5/16385'));
    expect(isStartCacheSealed(dir)).toBe(false);
  });

  it('vouches only for the start cache file it sealed', () => {
    const dir = folder();
    sealStartCache(dir);
    // Another cache put in its place (as an older cohort might leave one) is not sealed.
    writeFileSync(join(dir, START_CACHE_FILE), '{"other":1}');
    expect(isStartCacheSealed(dir)).toBe(false);
  });

  it('goes with the start cache, and there is none without one', () => {
    const dir = folder();
    sealStartCache(dir);
    invalidateStartCache(dir);
    expect(existsSync(join(dir, START_CACHE_SEAL_FILE))).toBe(false);
    sealStartCache(dir);
    expect(existsSync(join(dir, START_CACHE_SEAL_FILE))).toBe(false);
    expect(isStartCacheSealed(dir)).toBe(false);
  });

  it('is not made where the file system keeps whole seconds (a write could leave no trace)', () => {
    const dir = folder();
    for (const path of ['base/5/16384', 'base/5', 'base', 'PG_VERSION'])
      utimesSync(join(dir, path), 1_700_000_000, 1_700_000_000);
    sealStartCache(dir);
    expect(existsSync(join(dir, START_CACHE_SEAL_FILE))).toBe(false);
    expect(isStartCacheSealed(dir)).toBe(false);
  });

  it('is not taken from a damaged seal file', () => {
    const dir = folder();
    writeFileSync(join(dir, START_CACHE_SEAL_FILE), 'not json');
    expect(isStartCacheSealed(dir)).toBe(false);
  });

  it('says which sessions the engine holds, when it was given them and they were few enough', () => {
    const dir = folder();
    sealStartCache(dir, ['6f1c1e9e-5b9a-4b0e-9a53-2f8d1c3b7a10']);
    const seal = readStartCacheSeal(dir);
    expect(seal?.mayHoldSession('6f1c1e9e-5b9a-4b0e-9a53-2f8d1c3b7a10')).toBe(true);
    expect(seal?.mayHoldSession('0b6f6a4e-3f43-4d6e-9d5e-0f3c2a1b9c8d')).toBe(false);
    // The seal keeps digests, not the ids themselves.
    expect(readFileSync(join(dir, START_CACHE_SEAL_FILE), 'utf8')).not.toContain('6f1c1e9e');

    // Not given, or too many to list: any session may be the engine's.
    sealStartCache(dir);
    expect(readStartCacheSeal(dir)?.mayHoldSession('0b6f6a4e-3f43-4d6e-9d5e-0f3c2a1b9c8d')).toBe(
      true,
    );
    sealStartCache(
      dir,
      Array.from({ length: MAX_SEALED_SESSIONS + 1 }, (_, i) => `session-${i}`),
    );
    expect(readStartCacheSeal(dir)?.mayHoldSession('0b6f6a4e-3f43-4d6e-9d5e-0f3c2a1b9c8d')).toBe(
      true,
    );
  });
});
