/**
 * How far into an HTML body a `<meta charset>` is looked for: the 1,024 bytes the HTML standard's
 * encoding prescan reads.
 */
const META_PRESCAN_BYTES = 1024;

/** The `charset` parameter of a Content-Type (`text/html; charset="ISO-8859-1"`), if any. */
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** `<meta charset="…">` or `<meta http-equiv="Content-Type" content="…; charset=…">`. */
const META_CHARSET = /<meta\s[^>]*?charset\s*=\s*["']?\s*([-\w:.]+)/i;

/**
 * The text of a response body, decoded in the character set it is written in: its byte order
 * mark, else the Content-Type's `charset`, else (HTML) a `<meta charset>` near its start, else
 * UTF-8. A label the runtime has no decoder for is read as UTF-8. Every byte that is not valid in
 * that set becomes U+FFFD. A page in Latin-1 or UTF-16 read as UTF-8 came out as U+FFFD for each
 * accented letter, or a NUL after every letter with its tags left as text.
 *
 * @example
 * decodeBody(Buffer.from('Café', 'latin1'), 'text/plain; charset=ISO-8859-1'); // 'Café'
 */
export function decodeBody(bytes: Uint8Array, contentType: string): string {
  const declared =
    byteOrderMark(bytes) ??
    CHARSET_PARAMETER.exec(contentType)?.[1] ??
    (/html/i.test(contentType) || contentType === '' ? metaCharset(bytes) : undefined);
  // The decoder drops a byte order mark of its own encoding.
  return decoderFor(declared).decode(bytes);
}

/** The encoding a byte order mark at the start names (it wins over any label, as in browsers). */
function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** The charset a `<meta>` tag near the start of an HTML body names, if any. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, META_PRESCAN_BYTES)).toString('latin1');
  return META_CHARSET.exec(head)?.[1];
}

/** A decoder for `label`; UTF-8 for none, an unknown label, or one this runtime cannot decode. */
function decoderFor(label: string | undefined): TextDecoder {
  if (label !== undefined) {
    try {
      return new TextDecoder(label);
    } catch {
      // Unknown or unsupported label (a build of Node without full ICU): read as UTF-8.
    }
  }
  return new TextDecoder('utf-8');
}
