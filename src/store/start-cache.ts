import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { ChunkRecord } from '../schema/index.js';
import { removeFilesDurably, writeFileDurably } from './durable-file.js';

/**
 * The start cache of an embedded store's data folder: a copy of what a process reads to start
 * answering (every chunk, the store's chunk version, the saved build values such as the lexical
 * index and the trained router), in one file next to PGlite's own, so that `cohort ask` can
 * route and search while PGlite is still opening. It is only ever a copy: it is deleted before
 * an ingestion writes anything, and a process that used it checks it against the store before it
 * shows or saves an answer (see start-cached-store.ts).
 */
export const START_CACHE_FILE = 'cohort-start-cache.bin';

/** The start cache's seal (see start-cache-seal.ts): it goes whenever the start cache goes. */
export const START_CACHE_SEAL_FILE = 'cohort-start-cache.seal';

/** The first layout's file (JSON, every value in base64): deleted with the start cache. */
const OLD_START_CACHE_FILE = 'cohort-start-cache.json';

/** First bytes of the file: the layout's name and version (other layouts are not read). */
const MAGIC = 'CSC2';

/** What the start cache holds. */
export interface StartCache {
  /** `ChunkRepo.version()` when the chunks were read. */
  version: string;
  /** `chunkContentHash(chunks)`, which equals `ChunkRepo.contentHash()` of the same store. */
  contentHash: string;
  /**
   * The chunks; read back, each one's `text` is read from the file's bytes when first asked for
   * (a start reads a handful of passages, not the whole book).
   */
  chunks: ChunkRecord[];
  /** Saved build values by name: the key they were built from and their bytes. */
  entries: Map<string, { key: string; data: Uint8Array }>;
}

/**
 * The file's header (JSON). Regions are `[offset, length]` in bytes from the start of the file;
 * `check` is the SHA-1 of the version, the content hash and the chunk region, so a damaged file is
 * never read as chunks (the texts are not covered: the chunks' own hashes vouch for them in the
 * store, and a start shows only a handful).
 */
interface Header {
  version: string;
  contentHash: string;
  chunks: [number, number];
  texts: [number, number];
  check: string;
  entries: Record<string, { key: string; at: [number, number] }>;
}

/** One chunk in the file, all but its text, then its text's length in bytes. */
type ChunkRow = [
  id: string,
  source: string,
  ord: number,
  title: string,
  headingPath: string[],
  domain: string,
  hash: string,
  metadata: Record<string, unknown>,
  textBytes: number,
];

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const isRegion = (value: unknown, size: number): value is [number, number] =>
  Array.isArray(value) &&
  value.length === 2 &&
  value.every((n) => Number.isInteger(n) && n >= 0) &&
  (value[0] as number) + (value[1] as number) <= size;

function isHeader(value: unknown, size: number): value is Header {
  const header = value as Partial<Header> | null;
  return (
    typeof header === 'object' &&
    header !== null &&
    typeof header.version === 'string' &&
    typeof header.contentHash === 'string' &&
    typeof header.check === 'string' &&
    isRegion(header.chunks, size) &&
    isRegion(header.texts, size) &&
    typeof header.entries === 'object' &&
    header.entries !== null &&
    Object.values(header.entries).every(
      (entry) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof entry.key === 'string' &&
        isRegion(entry.at, size),
    )
  );
}

const isChunkRow = (row: unknown): row is ChunkRow =>
  Array.isArray(row) &&
  row.length === 9 &&
  typeof row[0] === 'string' &&
  typeof row[1] === 'string' &&
  typeof row[2] === 'number' &&
  typeof row[3] === 'string' &&
  isStrings(row[4]) &&
  typeof row[5] === 'string' &&
  typeof row[6] === 'string' &&
  typeof row[7] === 'object' &&
  row[7] !== null &&
  Number.isInteger(row[8]) &&
  (row[8] as number) >= 0;

/** The header's `check`: what the chunks are, with the version and content hash they are of. */
const checkOf = (version: string, contentHash: string, rows: Uint8Array) =>
  createHash('sha1').update(`${version}\n${contentHash}\n`).update(rows).digest('hex');

const align8 = (offset: number) => Math.ceil(offset / 8) * 8;

/**
 * The start cache of `dataDir`; undefined when there is none, or it is unreadable, of another
 * layout, or damaged. The chunks' texts stay in the file's bytes until read: a cold `cohort ask`
 * over ten copies of the ROS 2 docs (42,360 chunks) read and parsed a 90 MB JSON file with every
 * text and a base64 copy of the index and the router.
 *
 * @example
 * const cache = readStartCache('.cohort');
 */
export function readStartCache(dataDir: string): StartCache | undefined {
  let file: Buffer;
  try {
    file = readFileSync(join(dataDir, START_CACHE_FILE));
  } catch {
    return undefined;
  }
  try {
    if (file.length < 8 || file.toString('latin1', 0, 4) !== MAGIC) return undefined;
    const headerLength = file.readUInt32LE(4);
    if (8 + headerLength > file.length) return undefined;
    const header: unknown = JSON.parse(file.toString('utf8', 8, 8 + headerLength));
    if (!isHeader(header, file.length)) return undefined;
    const [chunksAt, chunksLength] = header.chunks;
    const chunkBytes = file.subarray(chunksAt, chunksAt + chunksLength);
    if (checkOf(header.version, header.contentHash, chunkBytes) !== header.check) return undefined;
    const rows: unknown = JSON.parse(chunkBytes.toString('utf8'));
    if (!Array.isArray(rows) || !rows.every(isChunkRow)) return undefined;
    const [textsAt, textsLength] = header.texts;
    let offset = textsAt;
    const chunks = rows.map((row): ChunkRecord => {
      const [id, source, ord, title, headingPath, domain, hash, metadata, textBytes] = row;
      const from = offset;
      offset += textBytes;
      let text: string | undefined;
      return {
        id,
        source,
        ord,
        title,
        headingPath,
        domain,
        get text() {
          return (text ??= file.toString('utf8', from, from + textBytes));
        },
        hash,
        metadata,
      };
    });
    if (offset !== textsAt + textsLength) return undefined;
    const entries = new Map<string, { key: string; data: Uint8Array }>();
    for (const [name, { key, at }] of Object.entries(header.entries))
      entries.set(name, { key, data: new Uint8Array(file.buffer, file.byteOffset + at[0], at[1]) });
    return { version: header.version, contentHash: header.contentHash, chunks, entries };
  } catch {
    return undefined;
  }
}

/**
 * The version and content hash the start cache of `dataDir` says it holds the chunks of, read from
 * its header alone (not the chunks, nor their check: a start that reads them checks them); undefined
 * when there is none or its header is not one of this layout.
 *
 * @example
 * const stamp = readStartCacheStamp('.cohort'); // { version, contentHash } | undefined
 */
export function readStartCacheStamp(
  dataDir: string,
): { version: string; contentHash: string } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(join(dataDir, START_CACHE_FILE), 'r');
    const start = Buffer.alloc(8);
    if (readSync(fd, start, 0, 8, 0) < 8 || start.toString('latin1', 0, 4) !== MAGIC) return;
    const header = Buffer.alloc(start.readUInt32LE(4));
    if (readSync(fd, header, 0, header.length, 8) < header.length) return;
    const parsed = JSON.parse(header.toString('utf8')) as Partial<Header> | null;
    if (typeof parsed?.version !== 'string' || typeof parsed.contentHash !== 'string') return;
    return { version: parsed.version, contentHash: parsed.contentHash };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes the start cache of `dataDir` whole or not at all (a temporary file renamed over it): a
 * header, the chunks without their texts (JSON), the texts (UTF-8, one after another), then each
 * build value's bytes at an 8-byte boundary, so a typed array can be read from them in place.
 *
 * @example
 * writeStartCache('.cohort', { version, contentHash, chunks, entries });
 */
export function writeStartCache(dataDir: string, cache: StartCache): void {
  const texts = cache.chunks.map((chunk) => Buffer.from(chunk.text, 'utf8'));
  const rows = Buffer.from(
    JSON.stringify(
      cache.chunks.map((chunk, i): ChunkRow => [
        chunk.id,
        chunk.source,
        chunk.ord,
        chunk.title,
        chunk.headingPath,
        chunk.domain,
        chunk.hash,
        chunk.metadata,
        (texts[i] as Buffer).length,
      ]),
    ),
    'utf8',
  );
  const textsLength = texts.reduce((sum, text) => sum + text.length, 0);
  // The header holds every offset, and the offsets depend on the header's length: a header with
  // the widest offsets the file can have is measured first, then the regions are placed after it.
  const layout = (start: number) => {
    let at = start;
    const chunks: [number, number] = [at, rows.length];
    at += rows.length;
    const textsRegion: [number, number] = [at, textsLength];
    at += textsLength;
    const entries: Header['entries'] = {};
    for (const [name, { key, data }] of cache.entries) {
      at = align8(at);
      entries[name] = { key, at: [at, data.byteLength] };
      at += data.byteLength;
    }
    return { chunks, texts: textsRegion, entries, size: at };
  };
  const headerOf = (start: number) => {
    const { size, ...regions } = layout(start);
    const header: Header = {
      version: cache.version,
      contentHash: cache.contentHash,
      check: checkOf(cache.version, cache.contentHash, rows),
      ...regions,
    };
    return { bytes: Buffer.from(JSON.stringify(header), 'utf8'), size, regions };
  };
  const widest = headerOf(2 ** 52).bytes.length;
  const { bytes: header, size, regions } = headerOf(align8(8 + widest));
  const file = Buffer.alloc(size);
  file.write(MAGIC, 0, 'latin1');
  file.writeUInt32LE(header.length, 4);
  header.copy(file, 8);
  rows.copy(file, regions.chunks[0]);
  let at = regions.texts[0];
  for (const text of texts) at += text.copy(file, at);
  for (const [name, { data }] of cache.entries)
    file.set(data, (regions.entries[name] as { at: [number, number] }).at[0]);
  writeFileDurably(dataDir, START_CACHE_FILE, file);
  // A folder that had a start cache of the first layout: its file is never read again.
  removeFilesDurably(dataDir, [OLD_START_CACHE_FILE]);
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
  removeFilesDurably(dataDir, [START_CACHE_SEAL_FILE, START_CACHE_FILE, OLD_START_CACHE_FILE]);
}
