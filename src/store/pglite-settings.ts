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
 * unchanged within noise (see the README's performance section).
 */
export const EMBEDDED_POSTGRES_SETTINGS: Readonly<Record<string, string>> = {
  // The buffer pool: 16 MB holds the sample book's tables and indexes many times over.
  shared_buffers: '16MB',
};

/**
 * The settings as PostgreSQL start parameters (`-c name=value` pairs), appended to PGlite's own.
 *
 * @example
 * embeddedStartParams(); // ['-c', 'shared_buffers=16MB']
 */
export function embeddedStartParams(
  settings: Readonly<Record<string, string>> = EMBEDDED_POSTGRES_SETTINGS,
): string[] {
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}
