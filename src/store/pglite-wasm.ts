import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Bytes of the array PGlite's WebAssembly file is read into: more than the largest block whose
 * release makes glibc's allocator change its thresholds (32 MB on 64-bit systems), whatever the
 * file's size (9 MB for PGlite 0.5).
 *
 * glibc serves a large allocation with a mapping of its own and, when one is freed, raises the
 * size above which it maps instead of using its heaps to that block's size (and the free space it
 * returns to the system from a heap's top to twice that), up to 32 MB. PGlite read its 9 MB file
 * into an array of exactly that size and dropped it once compiled: from then on every thread's
 * heap kept up to 18 MB free before giving any back, and the server's compiler threads held
 * 6–7 MB each of what they had freed. An array larger than the limit is mapped and unmapped
 * without moving the thresholds; only the pages the file is read into are ever resident.
 */
export const READ_ARRAY_BYTES = 32 * 1024 * 1024 + 64 * 1024;

let compiled: Promise<WebAssembly.Module> | undefined;

/** The path of the installed PGlite's WebAssembly (PostgreSQL), beside its entry point. */
export function pgliteWasmPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@electric-sql/pglite')), 'pglite.wasm');
}

/**
 * The bytes of the file at `path`, read into the start of an array of at least
 * {@link READ_ARRAY_BYTES} (see there why).
 *
 * @example
 * const bytes = readIntoLargeArray('pglite.wasm'); // bytes.buffer.byteLength > 32 MB
 */
export function readIntoLargeArray(path: string): Uint8Array<ArrayBuffer> {
  return readIntoLargeArrayWith(
    { openSync, fstatSync, readSync, closeSync },
    path,
    READ_ARRAY_BYTES,
  );
}

/**
 * {@link readIntoLargeArray} with the file system functions and the array's least size given: the
 * PGlite thread runs its text (see pglite-worker-source.ts), so it names nothing else.
 *
 * @example
 * const bytes = readIntoLargeArrayWith(require('node:fs'), path, READ_ARRAY_BYTES);
 */
export function readIntoLargeArrayWith(
  fs: {
    openSync: typeof openSync;
    fstatSync: typeof fstatSync;
    readSync: typeof readSync;
    closeSync: typeof closeSync;
  },
  path: string,
  arrayBytes: number,
): Uint8Array<ArrayBuffer> {
  const fd = fs.openSync(path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const array = new Uint8Array(Math.max(size, arrayBytes));
    let done = 0;
    while (done < size) {
      const read = fs.readSync(fd, array, done, size - done, done);
      if (read === 0) break;
      done += read;
    }
    return array.subarray(0, done);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * PGlite's WebAssembly module, compiled once per process (its functions are compiled when first
 * called, by whichever thread calls them) and handed to `PGlite.create` as `pgliteWasmModule`, in
 * this thread or, posted, in the engine's thread: PGlite's own loader reads the file in a way
 * that left every thread's C heap holding memory it had freed (see {@link READ_ARRAY_BYTES}).
 *
 * @example
 * const pg = await PGlite.create({ pgliteWasmModule: await pgliteWasmModule() });
 */
export function pgliteWasmModule(): Promise<WebAssembly.Module> {
  compiled ??= WebAssembly.compile(readIntoLargeArray(pgliteWasmPath())).catch((error: unknown) => {
    // Not kept: a later open tries again (and fails as PGlite's own loader would, with the cause).
    compiled = undefined;
    throw error;
  });
  return compiled;
}

/**
 * The module this process compiled or is compiling (see {@link pgliteWasmModule}), if any: when it
 * has none, a folder's PGlite thread compiles it as it starts, off this thread, and this process
 * keeps it ({@link keepPgliteWasmModule}).
 */
export function pgliteWasmModuleIfCompiled(): Promise<WebAssembly.Module> | undefined {
  return compiled;
}

/**
 * Keeps `module`, compiled by a PGlite thread, as this process's: later stores are given it, not
 * compiled again.
 *
 * @example
 * keepPgliteWasmModule(opened.wasmModule);
 */
export function keepPgliteWasmModule(module: WebAssembly.Module): void {
  compiled ??= Promise.resolve(module);
}
