/**
 * PostgreSQL's `bytea` in text form (`\x` and two hex digits a byte) for the embedded engine.
 *
 * PGlite's own codec goes a byte at a time through JavaScript strings: `Array.from` of the bytes,
 * a string per byte, a `join`; and back, a `substring` and a `parseInt` per byte. For the saved
 * router and index (hundreds of KB on the sample book, MB on a larger book) that was about a
 * second of the engine thread's time on each start under load, and megabytes of short-lived
 * strings; Node's `Buffer` does the same conversion natively. The text on the wire, and so what
 * is stored, is the same.
 */

/** PostgreSQL's type id of `bytea`. */
export const BYTEA_TYPE_ID = 17;

// Both functions use nothing but their argument and `Buffer`: the engine thread's code (plain
// JavaScript, see `pglite-worker-source.ts`) includes their source.

/**
 * A `bytea` value as PostgreSQL's hex text.
 *
 * @example
 * serializeBytea(new Uint8Array([1, 255])); // '\\x01ff'
 */
export const serializeBytea = (value: unknown): string => {
  if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
  return '\\x' + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
};

/**
 * PostgreSQL's hex text of a `bytea` as its bytes (a plain `Uint8Array`, as PGlite's own codec
 * gives, so it crosses threads and compares as before).
 *
 * @example
 * parseBytea('\\x01ff'); // Uint8Array [1, 255]
 */
export const parseBytea = (text: string): Uint8Array => {
  const bytes = Buffer.from(text.slice(2), 'hex');
  // A small Buffer is a view into a shared pool: copied, so no other bytes travel with it.
  return bytes.byteLength === bytes.buffer.byteLength
    ? new Uint8Array(bytes.buffer)
    : new Uint8Array(bytes);
};
