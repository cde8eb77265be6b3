import { nodeV8 } from '../builtins/index.js';
/**
 * PostgreSQL memory settings for the embedded engine (PGlite), passed as `-c` start parameters.
 *
 * PGlite starts PostgreSQL with the server defaults, sized for a machine serving many clients:
 * `shared_buffers` 128 MB, which PostgreSQL claims and touches when it starts, so it is resident
 * in the WebAssembly heap (which never shrinks) before the first query. An embedded store has one
 * session and a small database (the sample book's store is about 50 MB on disk, most of it the
 * fresh catalogue and one WAL segment); pages that do not fit the buffer pool are read back from
 * the data files (the operating system's page cache for a folder, JavaScript memory for
 * `memory://`), so a small pool costs a copy, not a disk read. Measured on the sample book's
 * server: resident memory at start 520 → about 400 MB with 16 MB; ingestion and query times
 * unchanged within noise (docs/measured.md, memory stage by stage). 16 → 4 MB: the WebAssembly
 * heap's resident part 33 → 21 MB, the folder server's peak under `/route` and `/chat` load
 * 247–260 → 230–236 MB in paired runs; `cohort ingest` of the ROS 2 docs into a new folder took
 * 2.8–4.1 s with 16 MB and 2.9–3.7 s with 4 MB on the loaded machine (same runs).
 */
export const EMBEDDED_POSTGRES_SETTINGS: Readonly<Record<string, string>> = {
  // The buffer pool: 4 MB (512 pages) holds the sample book's tables and indexes, and what a
  // turn or an ingestion batch writes, many times over.
  shared_buffers: '4MB',
  // PGlite runs PostgreSQL in single-user mode: one session, never a second connection. The
  // default of 100 sized the shared memory PostgreSQL sets up (and so touches) at start for 100
  // backends: their process slots and the lock table they share (11 → 8 MB of shared memory).
  // Measured: the WebAssembly heap's resident part after opening `memory://` 17.3 → 13.3 MB; the
  // sample book's server peak under `/route` then `/chat` 249.9–252.4 → 246.7–248.9 MB
  // (`memory://`) and 255.8–259.1 → 248.7–253.2 MB (a folder's first start), alternating runs.
  max_connections: '1',
  // Connections kept for superusers must be fewer than `max_connections` (a check of the
  // multi-user server, which single-user mode skips): none, so the pair stays valid anywhere.
  superuser_reserved_connections: '0',
  // A new WAL file (16 MB, made whenever the log runs past the last one) is created at its size
  // without being written full of zeros first. PostgreSQL zero-fills it to have the disk space
  // taken before it writes there; off, that space is taken as the log is written (PostgreSQL's
  // own setting, for file systems where filling first gains nothing; the log's writes, `fsync`s
  // and contents are the same). Filling it was a 16 MB write in the middle of whichever
  // statement crossed into it: `cohort ingest` of the ROS 2 docs into a new folder crosses once,
  // in the router's save at the end, which then took 267–342 ms of the engine's thread instead
  // of 94–158 (four alternating pairs; twelve interleaved pairs end to end: mean 4.37 → 4.24 s,
  // faster in 7, as fast in 2; docs/measured.md, sixth round).
  wal_init_zero: 'off',
};

/**
 * The settings as PostgreSQL start parameters (`-c name=value` pairs), appended to PGlite's own.
 *
 * @example
 * embeddedStartParams({ shared_buffers: '4MB' }); // ['-c', 'shared_buffers=4MB']
 */
export function embeddedStartParams(
  settings: Readonly<Record<string, string>> = EMBEDDED_POSTGRES_SETTINGS,
): string[] {
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}

/**
 * V8 settings for the embedded engine's WebAssembly (PGlite is PostgreSQL compiled to it): its
 * code is compiled by Liftoff, V8's baseline compiler, only. By default V8 also recompiles every
 * function that runs often with TurboFan, its optimising compiler, on background threads; for
 * PostgreSQL's large functions (the parser, the executor) that took 40–60 MB of compiler memory
 * at once, which the C allocator kept after it was freed, and the CPU of those compilations
 * delayed the engine's first minutes. Measured on the sample book's `cohort serve` on a folder
 * (later start, `/route` then `/chat` under 50 connections): peak resident memory 279–307 → 226–230
 * MB, start 2.0–2.7 → 1.0–1.3 s, `/chat` requests per second 177–222 → 273–359; `cohort ingest` of
 * the ROS 2 docs into a new folder 3.1–4.5 → 1.8–3.0 s and 295–313 → 210–216 MB at its peak.
 *
 * V8's settings belong to the process, not to a thread: once set, every WebAssembly module the
 * process compiles later is compiled by Liftoff only (what Node itself runs as WebAssembly, such as
 * fetch's HTTP parser, is small). JavaScript is not affected.
 */
export const EMBEDDED_WASM_V8_FLAGS: readonly string[] = ['--liftoff-only'];

/**
 * Sets {@link EMBEDDED_WASM_V8_FLAGS} for this process, before PGlite's WebAssembly is compiled.
 *
 * @example
 * useEmbeddedWasmCompiler(); // then create PGlite
 */
export function useEmbeddedWasmCompiler(): void {
  for (const flag of EMBEDDED_WASM_V8_FLAGS) nodeV8().setFlagsFromString(flag);
}
