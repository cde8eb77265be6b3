import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChunkRecord } from '../schema/index.js';
import { chunkContentHash } from './chunk-repo.js';
import { removeFilesDurably, writeFileDurably } from './durable-file.js';

/**
 * The start cache of an embedded store's data folder: a copy of what a process reads to start
 * answering (every chunk, the store's chunk version, the saved build values such as the lexical
 * index and the trained router), in one file next to PGlite's own, so that `cohort ask` can
 * route and search while PGlite is still opening. It is only ever a copy: it is deleted before
 * an ingestion writes anything, and a process that used it checks it against the store before it
 * shows or saves an answer (see start-cached-store.ts).
 */
export const START_CACHE_FILE = 'cohort-start-cache.json';

/** The start cache's seal (see start-cache-seal.ts): it goes whenever the start cache goes. */
export const START_CACHE_SEAL_FILE = 'cohort-start-cache.seal';

/** Bumped when the file's layout changes: other layouts are not read. */
const FORMAT = 1;

/** What the start cache holds. */
export interface StartCache {
  /** `ChunkRepo.version()` when the chunks were read. */
  version: string;
  /** `chunkContentHash(chunks)`, which equals `ChunkRepo.contentHash()` of the same store. */
  contentHash: string;
  chunks: ChunkRecord[];
  /** Saved build values by name: the key they were built from and their bytes. */
  entries: Map<string, { key: string; data: Uint8Array }>;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isChunk(value: unknown): value is ChunkRecord {
  const chunk = value as Partial<Record<keyof ChunkRecord, unknown>> | null;
  return (
    typeof chunk === 'object' &&
    chunk !== null &&
    typeof chunk.id === 'string' &&
    typeof chunk.source === 'string' &&
    typeof chunk.ord === 'number' &&
    typeof chunk.title === 'string' &&
    isStrings(chunk.headingPath) &&
    typeof chunk.domain === 'string' &&
    typeof chunk.text === 'string' &&
    typeof chunk.hash === 'string' &&
    typeof chunk.metadata === 'object' &&
    chunk.metadata !== null
  );
}

/**
 * The start cache of `dataDir`; undefined when there is none, or it is unreadable, of another
 * layout, or its chunks do not hash to the content hash it was written with.
 *
 * @example
 * const cache = readStartCache('.cohort');
 */
export function readStartCache(dataDir: string): StartCache | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, START_CACHE_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const saved = JSON.parse(text) as Record<string, unknown> | null;
    if (!saved || saved.format !== FORMAT) return undefined;
    const { version, contentHash, chunks, entries } = saved;
    if (typeof version !== 'string' || typeof contentHash !== 'string') return undefined;
    if (!Array.isArray(chunks) || !chunks.every(isChunk)) return undefined;
    if (chunkContentHash(chunks) !== contentHash) return undefined;
    if (typeof entries !== 'object' || entries === null) return undefined;
    const values = new Map<string, { key: string; data: Uint8Array }>();
    for (const [name, entry] of Object.entries(entries as Record<string, unknown>)) {
      const { key, data } = (entry ?? {}) as { key?: unknown; data?: unknown };
      if (typeof key !== 'string' || typeof data !== 'string') return undefined;
      values.set(name, { key, data: new Uint8Array(Buffer.from(data, 'base64')) });
    }
    return { version, contentHash, chunks, entries: values };
  } catch {
    return undefined;
  }
}

/**
 * Writes the start cache of `dataDir` whole or not at all (a temporary file renamed over it).
 *
 * @example
 * writeStartCache('.cohort', { version, contentHash, chunks, entries });
 */
export function writeStartCache(dataDir: string, cache: StartCache): void {
  const entries = Object.fromEntries(
    [...cache.entries].map(([name, { key, data }]) => [
      name,
      { key, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') },
    ]),
  );
  writeFileDurably(
    dataDir,
    START_CACHE_FILE,
    JSON.stringify({
      format: FORMAT,
      version: cache.version,
      contentHash: cache.contentHash,
      chunks: cache.chunks,
      entries,
    }),
  );
}

/**
 * Deletes the start cache of `dataDir`, and makes the deletion durable, before the caller
 * changes the store: a cache that outlived a change to the chunks could otherwise be read by
 * the next process.
 *
 * @example
 * invalidateStartCache('.cohort'); // then write the chunks
 */
export function invalidateStartCache(dataDir: string): void {
  // The seal first: a seal never vouches for a cache that is not there.
  removeFilesDurably(dataDir, [START_CACHE_SEAL_FILE, START_CACHE_FILE]);
}
