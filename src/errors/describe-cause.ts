/**
 * What a caught value says about a failure, in one bounded line for a message a user reads: an
 * `Error`'s message; a thrown non-Error's `message` field when it has a non-empty one; else its
 * JSON (without a `stack` field), so that `{ name: 'ErrnoError', errno: 44 }` (what PGlite's file
 * system throws) reads as that instead of `String(value)`'s "[object Object]". Longer than
 * `maxChars` (300 by default), it is cut with "…". Self-contained (no imports, no names outside
 * its body), so the PGlite thread's source embeds it as text.
 *
 * @example
 * describeCause(new Error('disk full')); // 'disk full'
 * describeCause({ name: 'ErrnoError', errno: 44 }); // '{"name":"ErrnoError","errno":44}'
 */
export function describeCause(cause: unknown, maxChars = 300): string {
  let text: string | undefined;
  const message =
    cause !== null && typeof cause === 'object' && 'message' in cause ? cause.message : undefined;
  if (typeof message === 'string' && message !== '') text = message;
  else if (cause instanceof Error) text = cause.name || 'Error';
  else if (typeof cause === 'string') text = cause || 'an empty string';
  else if (cause !== null && typeof cause === 'object') {
    try {
      text = JSON.stringify(cause, (key, value: unknown) =>
        key === 'stack' ? undefined : typeof value === 'bigint' ? String(value) : value,
      );
    } catch {
      // A cycle: the object's own keys still say what it is.
      text = undefined;
    }
    if (text === undefined || text === '{}') {
      const name = cause.constructor?.name;
      const keys = Object.keys(cause).filter((key) => key !== 'stack');
      text = `${name && name !== 'Object' ? name : 'an object'}${keys.length > 0 ? ` with ${keys.join(', ')}` : ''}`;
    }
  } else text = String(cause);
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
