import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBytea, serializeBytea } from './pglite-bytea.js';
import { openPgliteDb } from './pglite-db.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-bytea-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** PGlite's own codec, which these replace: the text must be the same. */
const pgliteSerialize = (bytes: Uint8Array) =>
  '\\x' + Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

const everyByte = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('bytea codec', () => {
  it("reads the hex text PGlite's codec writes", () => {
    expect(parseBytea(pgliteSerialize(everyByte))).toEqual(everyByte);
    expect(parseBytea('\\x')).toEqual(new Uint8Array());
    expect(parseBytea('\\x01FF')).toEqual(new Uint8Array([1, 255]));
  });

  it('writes the bytes themselves (a binary parameter), and reads into an array of their own', () => {
    expect(serializeBytea(everyByte)).toBe(everyByte);
    const parsed = parseBytea('\\x0a0b0c');
    expect(parsed.constructor).toBe(Uint8Array);
    expect(parsed.buffer.byteLength).toBe(3);
  });

  it('refuses a value that is not bytes', () => {
    expect(() => serializeBytea('0a0b')).toThrow(/bytea/);
  });

  for (const where of ['memory://', 'folder'] as const) {
    it(`stores and returns the same bytes on the ${where === 'folder' ? "engine's thread" : 'in-memory engine'}`, async () => {
      const db = await openPgliteDb(where === 'folder' ? join(root, 'store') : where);
      try {
        const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256);
        await db.exec('CREATE TABLE blobs (data BYTEA)');
        await db.query('INSERT INTO blobs (data) VALUES ($1)', [bytes]);
        const { rows } = await db.query<{ data: Uint8Array; md5: string }>(
          'SELECT data, md5(data) AS md5 FROM blobs',
        );
        expect(rows[0]?.md5).toBe(createHash('md5').update(bytes).digest('hex'));
        expect(rows[0]?.data).toEqual(bytes);
        // A view is stored as the bytes it covers, equal to the same bytes written as hex text.
        const view = everyByte.subarray(10, 13);
        await db.query('INSERT INTO blobs (data) VALUES ($1), (decode($2, $3))', [
          view,
          '0a0b0c',
          'hex',
        ]);
        const views = await db.query<{ data: Uint8Array }>(
          "SELECT data FROM blobs WHERE octet_length(data) = 3 AND data = '\\x0a0b0c'::bytea",
        );
        expect(views.rows.map((row) => row.data)).toEqual([view.slice(), view.slice()]);
      } finally {
        await db.close();
      }
    }, 120_000);
  }
});
