/** A NUL character, or a UTF-16 surrogate without its other half. */
// eslint-disable-next-line no-control-regex -- finding NUL is the point of this pattern
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` as the store can hold it: each NUL character and unpaired UTF-16 surrogate replaced by
 * U+FFFD. PostgreSQL's text and JSONB refuse both (a surrogate has no UTF-8 form), and a request's
 * text is refused at the API (422), but a model's answer, a tool's output (`cat` of a binary
 * file) or a page fetched may hold them: the write failed, and with it the answer.
 *
 * @example
 * storableText('a\u0000b'); // 'a\uFFFDb'
 */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '\uFFFD');
}

const hasUnstorable = (text: string) => text.search(UNSTORABLE) !== -1;

/**
 * `JSON.stringify(value)` for a JSONB column, with every string and key made
 * {@link storableText}: a run's output or a span's attributes carry models' and tools' text.
 *
 * @example
 * db.query('UPDATE runs SET output = $2 WHERE id = $1', [id, storableJson(output)]);
 */
export function storableJson(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, _key: string, inner: unknown) {
    if (typeof inner === 'string') return storableText(inner);
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    // A key is written as it is: an object with one that cannot be stored is copied with it made so.
    if (!Object.keys(inner).some(hasUnstorable)) return inner;
    return Object.fromEntries(
      Object.entries(inner).map(([key, entry]) => [storableText(key), entry as unknown]),
    );
  });
}
