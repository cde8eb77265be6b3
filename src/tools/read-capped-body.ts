import { decodeBody } from './body-charset.js';

/** What {@link readCappedBody} read: the text of at most `maxBytes`, and whether more was sent. */
export interface CappedBody {
  text: string;
  /** The body went on past `maxBytes`; the rest was never downloaded. */
  exceeded: boolean;
}

/**
 * Reads a response body up to `maxBytes` and cancels the rest, so an endpoint that sends without
 * end (hostile or broken) costs bounded memory. The text is decoded in the body's own character
 * set ({@link decodeBody}). Callers decide what a cut body means: `web_fetch`
 * shows the start of a page, a JSON or XML API fails, since half a document does not parse.
 *
 * @example
 * const { text, exceeded } = await readCappedBody(response, 5 * 1024 * 1024);
 */
export async function readCappedBody(response: Response, maxBytes: number): Promise<CappedBody> {
  if (!response.body) return { text: '', exceeded: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Read one chunk past the limit at most: that is how a body of exactly `maxBytes` differs from
  // a longer one.
  while (size <= maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return {
    text: decodeBody(
      Buffer.concat(chunks).subarray(0, maxBytes),
      response.headers.get('content-type') ?? '',
    ),
    exceeded: size > maxBytes,
  };
}
