import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import type { ChunkRecord } from '../schema/index.js';
import { chunkContentHash } from './chunk-repo.js';
import { createStore, openStore, type Store } from './store.js';
import { openPgliteDb } from './pglite-db.js';
import { readStartCache, START_CACHE_FILE, writeStartCache } from './start-cache.js';
import { startCachedStore } from './start-cached-store.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-start-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const newFolder = () => join(root, `store-${(folders += 1)}`);

const document = (source: string, hash: string) => ({
  source,
  title: source,
  hash,
  domain: 'general',
});
const chunk = (source: string, id: string, text: string): ChunkRecord => ({
  id,
  source,
  ord: 0,
  title: source,
  headingPath: [source],
  domain: 'general',
  text,
  hash: `h-${id}-${text}`,
  metadata: {},
});

// One folder holding one document, with its start cache, made once: each test works on a copy
// (opening a PGlite folder is the slow part of these tests).
let seed: { dataDir: string; first: Awaited<ReturnType<typeof start>> };
beforeAll(async () => {
  const dataDir = newFolder();
  const store = await openStore({ dataDir });
  await store.chunks.upsertDocument(document('a.md', 'v1'), [chunk('a.md', 'a1', 'alpha')]);
  await store.close();
  seed = { dataDir, first: await start(dataDir) };
}, 60_000);

/** A copy of the seeded folder, its start cache included (or not). */
function seeded(options: { cache?: boolean } = {}): string {
  const dataDir = newFolder();
  cpSync(seed.dataDir, dataDir, { recursive: true });
  if (options.cache === false) rmSync(join(dataDir, START_CACHE_FILE));
  return dataDir;
}

/** A promise and the function that resolves it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Opens `dataDir` through a start-cached store, reads what a start reads, and closes it. */
async function start(dataDir: string) {
  const cached = startCachedStore(dataDir, openStore({ dataDir }));
  const chunks = await cached.store.chunks.all();
  await cached.store.cache.get('index', 'k1');
  await cached.current;
  await cached.store.close();
  return { chunks, usedCache: cached.usedCache };
}

describe('start cache file', () => {
  it('reads back what was written, and nothing damaged, of another layout or inconsistent', () => {
    const dataDir = newFolder();
    mkdirSync(dataDir);
    expect(readStartCache(dataDir)).toBeUndefined();
    const chunks = [
      chunk('a.md', 'a1', 'alpha'),
      { ...chunk('b.md', 'b1', 'beta'), metadata: { kind: 'x' } },
    ];
    const entries = new Map([['index', { key: 'k1', data: new Uint8Array([1, 2, 3]) }]]);
    writeStartCache(dataDir, {
      version: '2:t',
      contentHash: chunkContentHash(chunks),
      chunks,
      entries,
    });
    expect(readStartCache(dataDir)).toEqual({
      version: '2:t',
      contentHash: chunkContentHash(chunks),
      chunks,
      entries,
    });

    const path = join(dataDir, START_CACHE_FILE);
    const saved = readFileSync(path);
    // Damaged in its header, its chunks or its layout, cut short, or of the first layout (JSON).
    const damaged = (from: string, to: string) => {
      const at = saved.indexOf(from);
      expect(at).toBeGreaterThanOrEqual(0);
      const bytes = Buffer.from(saved);
      bytes.write(to, at, 'latin1');
      return bytes;
    };
    for (const bytes of [
      damaged(chunkContentHash(chunks).slice(0, 8), 'ffffffff'),
      damaged('"b.md"', '"c.md"'),
      damaged('"kind"', '"kinD"'),
      damaged('CSC2', 'CSC9'),
      saved.subarray(0, saved.length - 2),
      Buffer.from('{"format":1,'),
    ]) {
      writeFileSync(path, bytes);
      expect(readStartCache(dataDir)).toBeUndefined();
    }
  });

  it("reads a chunk's text from the file only when it is asked for, and keeps each value's bytes 8-aligned", () => {
    const dataDir = newFolder();
    mkdirSync(dataDir);
    const chunks = [chunk('a.md', 'a1', 'alpha ünïcode ✓'), chunk('b.md', 'b1', 'beta')];
    const index = new Float64Array([1.5, -2, 3]);
    writeStartCache(dataDir, {
      version: '2:t',
      contentHash: chunkContentHash(chunks),
      chunks,
      entries: new Map([
        ['odd', { key: 'k0', data: new Uint8Array([7]) }],
        ['index', { key: 'k1', data: new Uint8Array(index.buffer) }],
      ]),
    });
    const read = readStartCache(dataDir);
    const first = read?.chunks[0] as ChunkRecord;
    const descriptor = Object.getOwnPropertyDescriptor(first, 'text');
    expect(descriptor?.get).toBeTypeOf('function');
    expect(descriptor?.enumerable).toBe(true);
    expect(first.text).toBe('alpha ünïcode ✓');
    // A copy of a chunk is a chunk with its text.
    expect({ ...first }).toEqual(chunks[0]);
    const bytes = read?.entries.get('index')?.data as Uint8Array;
    expect(bytes.byteOffset % 8).toBe(0);
    expect(new Float64Array(bytes.buffer, bytes.byteOffset, 3)).toEqual(index);
  });
});

describe('startCachedStore on a PGlite folder', () => {
  it('writes the start cache on close after a start that read the engine, then starts from it', async () => {
    const { dataDir, first } = seed;
    expect(first.usedCache).toBe(false);
    expect(first.chunks.map((c) => c.text)).toEqual(['alpha']);
    const saved = readStartCache(dataDir);
    expect(saved?.chunks).toEqual(first.chunks);

    const second = await start(dataDir);
    expect(second.usedCache).toBe(true);
    expect(second.chunks).toEqual(first.chunks);
  }, 60_000);

  it('answers reads before the engine is open, and holds every other call until it confirmed the cache', async () => {
    const dataDir = seeded();
    const engine = deferred<Store>();
    const cached = startCachedStore(dataDir, engine.promise);
    // The engine is not open: reads come from the cache.
    expect((await cached.store.chunks.all()).map((c) => c.text)).toEqual(['alpha']);
    expect(await cached.store.chunks.count()).toBe(1);
    let saved = false;
    const turn = cached.store.sessions
      .saveTurn('s1', [{ role: 'user', content: 'hi' }])
      .then(() => (saved = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(saved).toBe(false);
    engine.resolve(await openStore({ dataDir }));
    await cached.current;
    await turn;
    expect((await cached.store.sessions.history('s1', 10)).map((m) => m.content)).toEqual(['hi']);
    await cached.store.close();
  }, 60_000);

  it('is deleted before an ingestion writes: even one that fails leaves no cache behind', async () => {
    const dataDir = seeded();
    expect(existsSync(join(dataDir, START_CACHE_FILE))).toBe(true);
    const store = await openStore({ dataDir });
    try {
      await expect(
        store.chunks.upsertDocument(document('b.md', 'v1'), [
          chunk('b.md', 'dup', 'x'),
          chunk('b.md', 'dup', 'y'),
        ]),
      ).rejects.toThrow();
      expect(existsSync(join(dataDir, START_CACHE_FILE))).toBe(false);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('a cache the store does not match (changed by a program that kept none) is never confirmed: nothing is saved, and it is deleted', async () => {
    const dataDir = seeded();
    const stale = readFileSync(join(dataDir, START_CACHE_FILE));
    // A change made without the hook that deletes the cache (as an older cohort would).
    const bare = await createStore(await openPgliteDb(dataDir));
    await bare.chunks.upsertDocument(document('a.md', 'v2'), [chunk('a.md', 'a1', 'beta')]);
    await bare.close();
    writeFileSync(join(dataDir, START_CACHE_FILE), stale);

    const cached = startCachedStore(dataDir, openStore({ dataDir }));
    expect((await cached.store.chunks.all()).map((c) => c.text)).toEqual(['alpha']);
    const turn = cached.store.sessions.saveTurn('s1', [{ role: 'user', content: 'stale' }]);
    const error = await cached.current.catch((caught: unknown) => caught);
    expect(isCohortError(error, 'conflict')).toBe(true);
    expect(cached.stale).toBe(true);
    await expect(turn).rejects.toThrow(/start cache/);
    await cached.store.close();
    expect(existsSync(join(dataDir, START_CACHE_FILE))).toBe(false);

    const store = await openStore({ dataDir });
    try {
      expect(await store.sessions.history('s1', 10)).toEqual([]);
      expect((await store.chunks.all()).map((c) => c.text)).toEqual(['beta']);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('writes no cache when the chunks changed after they were read', async () => {
    const dataDir = seeded({ cache: false });
    const cached = startCachedStore(dataDir, openStore({ dataDir }));
    await cached.store.chunks.all();
    await cached.store.chunks.upsertDocument(document('c.md', 'v1'), [
      chunk('c.md', 'c1', 'gamma'),
    ]);
    await cached.store.close();
    expect(existsSync(join(dataDir, START_CACHE_FILE))).toBe(false);
  }, 60_000);

  it('reads every chunk from the engine once for all its readers, and again after a write', async () => {
    const dataDir = seeded({ cache: false });
    const real = await openStore({ dataDir });
    let reads = 0;
    const all = real.chunks.all.bind(real.chunks);
    real.chunks.all = () => {
      reads += 1;
      return all();
    };
    const cached = startCachedStore(dataDir, Promise.resolve(real));
    // The router and the index start together, each from every chunk.
    const [first, second] = await Promise.all([
      cached.store.chunks.all(),
      cached.store.chunks.all(),
    ]);
    expect(reads).toBe(1);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    await cached.store.chunks.upsertDocument(document('c.md', 'v1'), [
      chunk('c.md', 'c1', 'gamma'),
    ]);
    expect((await cached.store.chunks.all()).map((c) => c.text)).toEqual(['alpha', 'gamma']);
    expect(reads).toBe(2);
    await cached.store.close();
  }, 60_000);

  it('after an ingestion, reads back only the chunks it did not write, and gives what the engine holds', async () => {
    const dataDir = seeded({ cache: false });
    const real = await openStore({ dataDir });
    const calls: string[] = [];
    for (const method of ['all', 'allExcept'] as const) {
      const original = real.chunks[method].bind(real.chunks) as (...args: unknown[]) => unknown;
      (real.chunks as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        calls.push(method);
        return original(...args);
      };
    }
    const cached = startCachedStore(dataDir, Promise.resolve(real));
    // Sources out of JavaScript's order (UTF-16 'ﬀ' sorts before an astral letter, UTF-8 after),
    // parts in reverse, metadata keys in another order than JSONB's, a lone surrogate in the text.
    const parts = (source: string, texts: string[]) =>
      texts.map((text, ord) => ({
        ...chunk(source, `${source}#${ord}`, text),
        ord,
        metadata: { parts: texts.length, line: ord + 1, part: ord + 1, skipped: undefined },
      }));
    await cached.store.chunks.applyIngestion({
      write: [
        {
          document: document('\u{1d400}.md', 'v1'),
          chunks: parts('\u{1d400}.md', ['x', 'y']).reverse(),
        },
        { document: document('\ufb00.md', 'v1'), chunks: parts('\ufb00.md', ['cut \ud83d']) },
        { document: document('a.md', 'v1'), chunks: [chunk('a.md', 'a1', 'alpha again')] },
        { document: document('b.md', 'v1'), chunks: parts('b.md', ['beta']) },
      ],
    });
    const handed = await cached.store.chunks.all();
    expect(calls).toEqual(['allExcept']);
    const stored = await real.chunks.all();
    expect(handed).toEqual(stored);
    expect(handed.map((c) => JSON.stringify(c))).toEqual(stored.map((c) => JSON.stringify(c)));
    // 'a.md' was unchanged: the engine's chunk ('alpha'), not the one the ingestion passed.
    expect(handed.map((c) => c.text)).toEqual(['alpha', 'beta', 'cut \ufffd', 'x', 'y']);
    await cached.store.close();
    expect(readStartCache(dataDir)?.chunks.map((c) => c.id)).toEqual(stored.map((c) => c.id));
  }, 60_000);

  it('after its own ingestion, writes the start cache on close while the engine still writes a value put before', async () => {
    // As `cohort ingest` closes: the trained router's write is under way in the engine, which
    // answers the close's reads (version, hash) only after it; the file is written meanwhile.
    const dataDir = seeded({ cache: false });
    const real = await openStore({ dataDir });
    const engineBusy = deferred<void>();
    const behindTheWrite = <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      (async (...args: A) => {
        await engineBusy.promise;
        return call(...args);
      }) as (...args: A) => Promise<R>;
    const cached = startCachedStore(dataDir, Promise.resolve(real), { fresh: true });
    await cached.store.chunks.applyIngestion({
      write: [{ document: document('b.md', 'v1'), chunks: [chunk('b.md', 'b1', 'beta')] }],
    });
    const chunks = await cached.store.chunks.all();
    real.cache.put = behindTheWrite(real.cache.put.bind(real.cache));
    real.chunks.version = behindTheWrite(real.chunks.version.bind(real.chunks));
    real.chunks.contentHash = behindTheWrite(real.chunks.contentHash.bind(real.chunks));
    const putting = cached.store.cache.put('index', 'k3', new Uint8Array([7]));
    const closing = cached.store.close();
    const file = join(dataDir, START_CACHE_FILE);
    for (let turn = 0; turn < 100 && !existsSync(file); turn++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(existsSync(file)).toBe(true);
    engineBusy.resolve();
    await putting;
    await closing;
    const written = readStartCache(dataDir);
    expect(written?.chunks.map((c) => c.text)).toEqual(chunks.map((c) => c.text));
    expect(written?.contentHash).toBe(chunkContentHash(chunks));
    expect(written?.entries.get('index')).toEqual({ key: 'k3', data: new Uint8Array([7]) });
    // The engine gives the same version and hash: the file is the store's.
    const again = await openStore({ dataDir });
    try {
      expect(written?.version).toBe(await again.chunks.version());
      expect(written?.contentHash).toBe(await again.chunks.contentHash());
    } finally {
      await again.close();
    }
  }, 60_000);

  it('after its own ingestion, keeps no start cache when another handle changed the chunks before close', async () => {
    const dataDir = seeded({ cache: false });
    const real = await openStore({ dataDir });
    const cached = startCachedStore(dataDir, Promise.resolve(real), { fresh: true });
    await cached.store.chunks.applyIngestion({
      write: [{ document: document('b.md', 'v1'), chunks: [chunk('b.md', 'b1', 'beta')] }],
    });
    await cached.store.chunks.all();
    await real.chunks.upsertDocument(document('c.md', 'v1'), [chunk('c.md', 'c1', 'gamma')]);
    await cached.store.close();
    expect(existsSync(join(dataDir, START_CACHE_FILE))).toBe(false);
  }, 60_000);

  it('a fresh start reads no start cache, and writes one on close', async () => {
    const dataDir = seeded();
    const cached = startCachedStore(dataDir, openStore({ dataDir }), { fresh: true });
    expect((await cached.store.chunks.all()).map((c) => c.text)).toEqual(['alpha']);
    expect(cached.usedCache).toBe(false);
    await cached.store.cache.put('index', 'k2', new Uint8Array([4, 5]));
    await cached.store.close();
    expect(readStartCache(dataDir)?.entries.get('index')).toEqual({
      key: 'k2',
      data: new Uint8Array([4, 5]),
    });
  }, 60_000);
});
