import * as nodeFs from 'node:fs';
import { join } from 'node:path';

/** One member of a snapshot tarball: a folder or a file of the data folder. */
export interface SnapshotMember {
  /** Its path inside the data folder, as segments (never empty, never `..`). */
  parts: string[];
  kind: 'folder' | 'file';
  /** Its permission bits. */
  mode: number;
  /** Its modification time, in seconds since the epoch. */
  mtime: number;
  /** Its bytes (files only). */
  size: number;
  /** Reads `length` of its bytes from `position` into `buffer`; the count read. */
  read(buffer: Uint8Array, position: number, length: number): number;
}

/** The calls of Node's `fs` a snapshot is read and written with. */
export type SnapshotFs = Pick<
  typeof nodeFs,
  'openSync' | 'readSync' | 'closeSync' | 'mkdirSync' | 'writeSync' | 'utimesSync'
>;

// `readSnapshotWith` and `unpackSnapshotWith` use nothing but their arguments and JavaScript's
// and Node's globals (their helpers and constants are their own): the PGlite thread's code (plain
// JavaScript, see `pglite-worker-source.ts`) includes their source, so that a new store's folder
// is unpacked on that thread, the same code as here.

/**
 * {@link readSnapshot} with the file system calls passed in (see above).
 *
 * @example
 * readSnapshotWith(fs, tarball, (member) => console.log(member.parts.join('/')));
 */
export function readSnapshotWith(
  fs: Pick<SnapshotFs, 'openSync' | 'readSync' | 'closeSync'>,
  tarball: string,
  visit: (member: SnapshotMember) => void,
): void {
  /** A tar block: headers and file contents are padded to multiples of it. */
  const BLOCK = 512;
  /** Reads a NUL-terminated string field of a tar header. */
  const field = (header: Buffer, start: number, length: number): string => {
    const bytes = header.subarray(start, start + length);
    const end = bytes.indexOf(0);
    return bytes.toString('utf8', 0, end === -1 ? length : end);
  };
  /** Reads an octal number field of a tar header (size, mode, modification time). */
  const octal = (header: Buffer, start: number, length: number, name: string): number => {
    const text = field(header, start, length).trim();
    if (!/^[0-7]*$/.test(text)) throw new Error(`a header field of "${name}" is not octal`);
    return text ? parseInt(text, 8) : 0;
  };
  /** The header's own checksum matches its bytes (the checksum field counted as spaces). */
  const checksumMatches = (header: Buffer): boolean => {
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
    return sum === octal(header, 148, 8, 'header');
  };
  /**
   * The path segments a member names inside the data folder, refusing any that would leave it:
   * the tarball's members are written as PGlite's own dump names them (`/base/5/1259`), and
   * nothing else is trusted.
   */
  const partsOf = (name: string): string[] => {
    const parts = name.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.length === 0 || parts.some((part) => part === '..'))
      throw new Error(`the member "${name}" names no path inside the data folder`);
    return parts;
  };
  /**
   * A member that is one of cohort's own files beside PostgreSQL's at the top of a data folder
   * (the folder lock `cohort.lock`, the start cache, its seal, the trace journal), never
   * PostgreSQL's. PGlite's dump of a folder store takes in every file of the folder, so a
   * snapshot saved from a new folder holds the lock of the process that saved it: unpacked after
   * the new store took its own lock, it replaced that lock with a dead process's, which another
   * process would take over as stale while the store was open, and which the store could not
   * release (not its own) on close.
   */
  const isCohortFile = (parts: readonly string[]): boolean =>
    parts.length === 1 && parts[0]!.startsWith('cohort');

  const fd = fs.openSync(tarball, 'r');
  const header = Buffer.alloc(BLOCK);
  let offset = 0;
  let members = 0;
  try {
    for (;;) {
      if (fs.readSync(fd, header, 0, BLOCK, offset) !== BLOCK)
        throw new Error('the tarball ends before its end-of-archive marker');
      offset += BLOCK;
      // Two zero blocks end the archive; the first is enough to know.
      if (header.every((byte) => byte === 0)) break;
      if (!checksumMatches(header)) throw new Error('a header is damaged (bad checksum)');
      const prefix = field(header, 345, 155);
      const name = (prefix ? `${prefix}/` : '') + field(header, 0, 100);
      const type = String.fromCharCode(header[156]!);
      if (type !== '5' && type !== '0' && type !== '\0')
        throw new Error(`the member "${name}" is of a kind a data folder does not hold (${type})`);
      const size = type === '5' ? 0 : octal(header, 124, 12, name);
      const start = offset;
      const parts = partsOf(name);
      members += 1;
      offset += Math.ceil(size / BLOCK) * BLOCK;
      if (isCohortFile(parts)) continue;
      visit({
        parts,
        kind: type === '5' ? 'folder' : 'file',
        mode: octal(header, 100, 8, name) & 0o777,
        mtime: octal(header, 136, 12, name),
        size,
        read: (buffer, position, length) => {
          const count = fs.readSync(
            fd,
            buffer,
            0,
            Math.min(length, size - position),
            start + position,
          );
          if (count === 0 && length > 0) throw new Error(`the tarball ends inside "${name}"`);
          return count;
        },
      });
    }
  } finally {
    fs.closeSync(fd);
  }
  if (members === 0) throw new Error('the tarball is empty');
}

/**
 * Walks a tarball of PGlite's (`dumpDataDir('none')`: ustar, regular files and folders) member by
 * member, reading headers only: each file's bytes are read by `visit` when it wants them, so the
 * tarball is never in memory whole. Throws on anything it does not recognise (a damaged or foreign
 * tarball, a path leaving the folder, a link), so the caller can fall back to a new folder.
 * cohort's own files at the folder's top (its lock, start cache) are passed over: a new store has
 * its own.
 *
 * @example
 * readSnapshot(tarball, (member) => console.log(member.parts.join('/'), member.size));
 */
export function readSnapshot(tarball: string, visit: (member: SnapshotMember) => void): void {
  readSnapshotWith(nodeFs, tarball, visit);
}

/**
 * {@link unpackSnapshot} with the file system calls, the path joiner and the tarball reader
 * ({@link readSnapshotWith}) passed in (see above).
 *
 * @example
 * unpackSnapshotWith({ fs, join }, readSnapshotWith, tarball, '.cohort');
 */
export function unpackSnapshotWith(
  using: { fs: SnapshotFs; join: (...parts: string[]) => string },
  read: typeof readSnapshotWith,
  tarball: string,
  dir: string,
): void {
  const { fs } = using;
  /** Bytes copied at a time from the tarball to a file: the biggest file is a 16 MB WAL segment. */
  const COPY_BYTES = 1024 * 1024;
  fs.mkdirSync(dir, { recursive: true });
  const buffer = Buffer.alloc(COPY_BYTES);
  read(fs, tarball, (member) => {
    const target = using.join(dir, ...member.parts);
    if (member.kind === 'folder') {
      fs.mkdirSync(target, { recursive: true, mode: member.mode });
      return;
    }
    const out = fs.openSync(target, 'w', member.mode);
    try {
      for (let done = 0; done < member.size;) {
        const count = member.read(buffer, done, COPY_BYTES);
        // All of it, or an error: `writeSync` writes what fits on a full disk and returns a short
        // count without one (as `writeFullySync` does, which this code cannot import).
        for (let written = 0; written < count;) {
          const wrote = fs.writeSync(out, buffer, written, count - written);
          if (wrote === 0)
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
              code: 'ENOSPC',
            });
          written += wrote;
        }
        done += count;
      }
    } finally {
      fs.closeSync(out);
    }
    fs.utimesSync(target, member.mtime, member.mtime);
  });
}

/**
 * Writes the data folder saved in a snapshot tarball into `dir`, as PGlite's own loader would
 * (same files and modification times, and the tarball's modes, where PGlite's made every file
 * 0666), copying each file through a small buffer: PGlite's `loadDataDir` reads all of the tarball
 * into the engine thread and copies it again through its virtual file system (≈ 125 MB of buffers
 * at the start's peak for the 40 MB fresh folder), and it takes a fraction of the time. A new
 * store's folder is unpacked on the PGlite thread instead (`openPgliteWorkerDb`'s `snapshot`),
 * with the same code.
 *
 * @example
 * unpackSnapshot('~/.cache/cohort/pglite-0.5.14-schema-7008d9f6a17f.tar', '.cohort');
 */
export function unpackSnapshot(tarball: string, dir: string): void {
  unpackSnapshotWith({ fs: nodeFs, join }, readSnapshotWith, tarball, dir);
}

/** Bytes read at a time from the tarball into the in-memory file system's arrays. */
const MEMORY_COPY_BYTES = 1024 * 1024;

/** Bytes compared at a time for zeros: the system's memory page. */
const PAGE = 4096;
const ZERO_PAGE = Buffer.alloc(PAGE);

/**
 * Copies `source` into `target` at `offset`, page by page, leaving out the pages of `source` that
 * are all zeros (`target` holds zeros there already).
 */
export function copyNonZeroPages(source: Uint8Array, target: Uint8Array, offset: number): void {
  for (let start = 0; start < source.length; start += PAGE) {
    const end = Math.min(start + PAGE, source.length);
    // Compared with memcmp, not byte by byte in JavaScript.
    const page = Buffer.from(source.buffer, source.byteOffset + start, end - start);
    if (!page.equals(ZERO_PAGE.subarray(0, end - start)))
      target.set(source.subarray(start, end), offset + start);
  }
}

/** The part of Emscripten's file system (PGlite's `Module.FS`) a snapshot is written with. */
export interface EmscriptenFs {
  mkdirTree(path: string, mode?: number): void;
  writeFile(path: string, data: Uint8Array, options?: { canOwn?: boolean }): void;
  chmod(path: string, mode: number): void;
  utime(path: string, atime: number, mtime: number): void;
}

/**
 * Writes a snapshot tarball's data folder into PGlite's in-memory file system at `dir` (for
 * `memory://`), one file at a time: each file's bytes are read into an array the file system then
 * owns, so the tarball, and the copies PGlite's own loader makes of it, are never in memory.
 *
 * @example
 * unpackSnapshotInto(tarball, module.FS, '/pglite/data');
 */
export function unpackSnapshotInto(
  tarball: string,
  fs: EmscriptenFs,
  dir: string,
  options: {
    /** Bytes of a file left as zeros, not copied (see `walNeverRead`). */
    zeros?: (parts: readonly string[], size: number) => { start: number; end: number } | undefined;
  } = {},
): void {
  fs.mkdirTree(dir);
  const scratch = Buffer.alloc(MEMORY_COPY_BYTES);
  readSnapshot(tarball, (member) => {
    const target = [dir, ...member.parts].join('/');
    if (member.kind === 'folder') {
      fs.mkdirTree(target, member.mode);
      return;
    }
    // An array of its own (not a slice of Node's shared pool), handed to the file system whole.
    // A new array is zeros the system has not handed out yet (a large one is mapped on first
    // write), so only the pages that are not all zeros are copied in: the fresh WAL segment is
    // 16 MB of which 9 are zeros PostgreSQL has not written yet, and stay out of memory until it
    // does.
    const bytes = new Uint8Array(member.size);
    const zeros = options.zeros?.(member.parts, member.size);
    for (let done = 0; done < member.size;) {
      // A range left as zeros is skipped over, not read.
      if (zeros && done >= zeros.start && done < zeros.end) {
        done = zeros.end;
        continue;
      }
      const length =
        zeros && done < zeros.start ? Math.min(scratch.length, zeros.start - done) : scratch.length;
      const read = member.read(scratch, done, length);
      copyNonZeroPages(scratch.subarray(0, read), bytes, done);
      done += read;
    }
    fs.writeFile(target, bytes, { canOwn: true });
    fs.chmod(target, member.mode);
    fs.utime(target, member.mtime * 1000, member.mtime * 1000);
  });
}
