/** Why a file's bytes cannot be ingested as text. */
export type UndecodableReason = 'binary' | 'invalid_utf8' | 'invalid_utf16';

/** The text of a file, or why it has none. */
export type DecodedText = { ok: true; text: string } | { ok: false; reason: string };

/** The part of a file inspected to tell text from binary. */
const SNIFF_BYTES = 8192;

const decoder = (encoding: 'utf-8' | 'utf-16le' | 'utf-16be') =>
  new TextDecoder(encoding, { fatal: true, ignoreBOM: true });

/**
 * UTF-16 without a byte-order mark is recognised by its zero bytes: text in the Latin range has
 * one in every other byte. Returns the byte order, if the sample looks like that.
 */
function bomlessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const sample = bytes.subarray(0, Math.min(bytes.length, SNIFF_BYTES) & ~1);
  if (sample.length < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i += 2) {
    if (sample[i] === 0) evenZeros++;
    if (sample[i + 1] === 0) oddZeros++;
  }
  const pairs = sample.length / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return undefined;
}

/**
 * Decodes a file's bytes as text: UTF-8 (with or without a byte-order mark), or UTF-16 (little or
 * big endian, with a byte-order mark or recognisable without one). Bytes that are not text (a NUL
 * byte in UTF-8, invalid UTF-8 or UTF-16 sequences, lone surrogates) are refused with a reason a
 * user can act on, so ingestion can skip the file by name instead of failing in the database.
 *
 * @example
 * const decoded = decodeText(await readFile(path));
 * if (!decoded.ok) console.warn(`Skipped ${path}: ${decoded.reason}`);
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  let encoding: 'utf-8' | 'utf-16le' | 'utf-16be' = 'utf-8';
  let body = bytes;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) body = bytes.subarray(3);
  else if (bytes[0] === 0xff && bytes[1] === 0xfe)
    [encoding, body] = ['utf-16le', bytes.subarray(2)];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff)
    [encoding, body] = ['utf-16be', bytes.subarray(2)];
  else encoding = bomlessUtf16(bytes) ?? 'utf-8';

  let text: string;
  try {
    text = decoder(encoding).decode(body);
  } catch {
    return {
      ok: false,
      reason:
        encoding === 'utf-8'
          ? 'not valid UTF-8 text (save it as UTF-8)'
          : `not valid ${encoding.toUpperCase()} text (save it as UTF-8)`,
    };
  }
  if (text.includes('\u0000')) {
    return { ok: false, reason: 'contains NUL bytes: it looks like a binary file, not text' };
  }
  return { ok: true, text };
}
