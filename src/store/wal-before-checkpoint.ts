import { readSnapshot } from './snapshot-unpack.js';

/**
 * What of a fresh data folder's write-ahead log PostgreSQL never reads again: the pages before the
 * one its last checkpoint's redo point is on (but for the segment's first). Starting, PostgreSQL reads `global/pg_control`, finds
 * the checkpoint there and replays the log from its redo point on; the records before it are
 * already in the data files. A fresh folder's log holds initdb's 7 MB of them, which `memory://`
 * would otherwise keep in JavaScript memory for as long as it runs (see `unpackSnapshotInto`).
 */

/** The WAL page: PostgreSQL reads the log a page at a time and checks each page's header. */
const WAL_PAGE = 8192;
/** `pg_control_version` of the layout read below (PostgreSQL 18, PGlite 0.5). */
const CONTROL_VERSION = 1800;
/** Offsets in `ControlFileData`: the version (uint32) and the checkpoint copy's redo (uint64). */
const VERSION_OFFSET = 8;
const REDO_OFFSET = 40;

/**
 * The redo point (an LSN) of the last checkpoint recorded in `global/pg_control` of a snapshot
 * tarball; undefined when there is no control file or it is of another layout (then nothing of
 * the log is left out).
 *
 * @example
 * checkpointRedo('~/.cache/cohort/pglite-0.5.14-schema-7008d9f6a17f.tar');
 */
export function checkpointRedo(tarball: string): bigint | undefined {
  let redo: bigint | undefined;
  readSnapshot(tarball, (member) => {
    if (member.kind !== 'file' || member.parts.join('/') !== 'global/pg_control') return;
    if (member.size < REDO_OFFSET + 8) return;
    const bytes = Buffer.alloc(REDO_OFFSET + 8);
    if (member.read(bytes, 0, bytes.length) !== bytes.length) return;
    if (bytes.readUInt32LE(VERSION_OFFSET) !== CONTROL_VERSION) return;
    redo = bytes.readBigUInt64LE(REDO_OFFSET);
  });
  return redo;
}

/** A range of a file's bytes, `start` included, `end` not. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The bytes of the file `parts` (of `size` bytes) of a data folder that are log PostgreSQL never
 * reads again, given the checkpoint's `redo` point: for a WAL segment (`pg_wal/` and a
 * 24-hex-digit name, the timeline then the segment's number), the whole pages before the one
 * `redo` is on, but for the segment's first page, whose long header PostgreSQL checks whenever it
 * opens a segment; undefined for any other file.
 *
 * @example
 * walNeverRead(['pg_wal', '000000010000000000000001'], 16 << 20, 0x16ef920n);
 * // { start: 0x2000, end: 0x6ee000 }
 */
export function walNeverRead(
  parts: readonly string[],
  size: number,
  redo: bigint,
): ByteRange | undefined {
  const name = parts[1];
  if (parts.length !== 2 || parts[0] !== 'pg_wal' || !name || !/^[0-9A-F]{24}$/.test(name))
    return undefined;
  if (size <= 0 || size % WAL_PAGE !== 0 || 2 ** 32 % size !== 0) return undefined;
  // The segment's number is its log id (high 32 bits of an LSN) times the segments per log id,
  // plus its number within that log id.
  const segmentSize = BigInt(size);
  const start =
    BigInt(parseInt(name.slice(8, 16), 16)) * 2n ** 32n +
    BigInt(parseInt(name.slice(16, 24), 16)) * segmentSize;
  if (redo < start) return undefined;
  const before = ((redo - start) / BigInt(WAL_PAGE)) * BigInt(WAL_PAGE);
  const end = Number(before < segmentSize ? before : segmentSize);
  return end > WAL_PAGE ? { start: WAL_PAGE, end } : undefined;
}
