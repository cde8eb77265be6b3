import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteWasmModule, readIntoLargeArray } from './pglite-wasm.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-pglite-wasm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("PGlite's WebAssembly module", () => {
  it('is read into an array larger than what moves glibc thresholds when freed, holding the file exactly', () => {
    const file = join(root, 'bytes.bin');
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) % 251);
    writeFileSync(file, bytes);
    const read = readIntoLargeArray(file);
    expect(read).toEqual(bytes);
    expect(read.buffer.byteLength).toBeGreaterThan(32 * 1024 * 1024);
  });

  it('is compiled once per process', async () => {
    const first = pgliteWasmModule();
    expect(pgliteWasmModule()).toBe(first);
    const module = await first;
    expect(module).toBeInstanceOf(WebAssembly.Module);
    expect(WebAssembly.Module.exports(module).length).toBeGreaterThan(0);
  }, 60_000);
});
