import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFullySync } from './durable-file.js';

/** A tar block: headers and file contents are padded to multiples of it. */
const BLOCK = 512;
/** Bytes copied at a time from a file to the tarball. */
const COPY_BYTES = 1024 * 1024;
/** The longest member name a ustar header holds without its prefix field. */
const MAX_NAME = 100;

/** Writes `value` as a NUL-terminated octal field of `length` bytes at `start`. */
function octalField(header: Buffer, start: number, length: number, value: number): void {
  header.write(value.toString(8).padStart(length - 1, '0'), start, length - 1, 'ascii');
}

/** A ustar header for `name` (a folder when `size` is undefined). */
function header(name: string, mode: number, mtime: number, size: number | undefined): Buffer {
  if (Buffer.byteLength(name) > MAX_NAME)
    throw new Error(`the member "${name}" is too long a name for a snapshot`);
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, MAX_NAME, 'utf8');
  octalField(block, 100, 8, mode & 0o777);
  octalField(block, 108, 8, 0);
  octalField(block, 116, 8, 0);
  octalField(block, 124, 12, size ?? 0);
  octalField(block, 136, 12, mtime);
  block.write(size === undefined ? '5' : '0', 156, 1, 'ascii');
  block.write('ustar\u000000', 257, 8, 'ascii');
  // The checksum is the sum of the header's bytes, its own field counted as spaces.
  block.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return block;
}

/**
 * Writes the data folder `dir` as a tarball at `tarball`, in the layout `readSnapshot` reads (and
 * PGlite's own `dumpDataDir('none')` writes): a ustar member per folder and regular file, paths
 * relative to the folder, its modes and modification times. cohort's own files at the folder's
 * top (its lock, start cache) are left out, as `readSnapshot` passes them over. For the
 * fresh-folder snapshot of a cleanly shut down engine, which PGlite cannot dump (see
 * `saveSnapshot`).
 *
 * @example
 * packSnapshot('/tmp/fresh-folder', '~/.cache/cohort/pglite-0.5.14-schema-7008d9f6a17f.tar.partial');
 */
export function packSnapshot(dir: string, tarball: string): void {
  const out = openSync(tarball, 'w');
  const buffer = Buffer.alloc(COPY_BYTES);
  const write = (bytes: Buffer, length = bytes.length) => writeFullySync(out, bytes, length);
  const walk = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder).sort()) {
      if (prefix === '' && name.startsWith('cohort')) continue;
      const path = join(folder, name);
      const member = prefix + name;
      const stats = statSync(path);
      const mtime = Math.floor(stats.mtimeMs / 1000);
      if (stats.isDirectory()) {
        write(header(member, stats.mode, mtime, undefined));
        walk(path, `${member}/`);
        continue;
      }
      if (!stats.isFile()) throw new Error(`"${member}" is not a file or folder`);
      write(header(member, stats.mode, mtime, stats.size));
      const source = openSync(path, 'r');
      try {
        let done = 0;
        while (done < stats.size) {
          const read = readSync(source, buffer, 0, Math.min(COPY_BYTES, stats.size - done), done);
          if (read === 0) throw new Error(`"${member}" ended while it was read`);
          write(buffer, read);
          done += read;
        }
      } finally {
        closeSync(source);
      }
      const padding = (BLOCK - (stats.size % BLOCK)) % BLOCK;
      if (padding > 0) write(Buffer.alloc(padding));
    }
  };
  try {
    walk(dir, '');
    // Two zero blocks end the archive.
    write(Buffer.alloc(2 * BLOCK));
  } finally {
    closeSync(out);
  }
}
