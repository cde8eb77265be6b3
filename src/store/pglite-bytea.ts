/**
 * PostgreSQL's `bytea` for the embedded engine: written as a binary parameter, read from its text
 * form (`\x` and two hex digits a byte).
 *
 * PGlite's own codec goes a byte at a time through JavaScript strings: `Array.from` of the bytes,
 * a string per byte, a `join`; and back, a `substring` and a `parseInt` per byte. For the saved
 * router and index (hundreds of KB on the sample book, MB on a larger book) that was about a
 * second of the engine thread's time on each start under load, and megabytes of short-lived
 * strings; Node's `Buffer` does the reading natively. Writing needs no text at all: PGlite's
 * protocol writer sends a parameter that is a byte view in PostgreSQL's binary format, which for
 * `bytea` is the bytes themselves, so neither the hex text (twice the bytes, then UTF-8 encoded)
 * is made nor parsed back by the engine. What is stored is the same.
 */
/** PostgreSQL's type id of `bytea`. */
export const BYTEA_TYPE_ID = 17;

// Both functions use nothing but their argument and `Buffer`: the engine thread's code (plain
// JavaScript, see `pglite-worker-source.ts`) includes their source.

/**
 * A `bytea` parameter as PGlite sends it in binary format: the value's own bytes (a view is sent
 * as only the bytes it covers). PGlite's type for a serializer says it returns a string; its
 * protocol writer also takes a byte view, and sends that as a binary parameter.
 *
 * @example
 * serializeBytea(new Uint8Array([1, 255])); // Uint8Array [1, 255], sent as 2 bytes
 */
export const serializeBytea = (value: unknown): Uint8Array => {
  if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
  return value;
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
