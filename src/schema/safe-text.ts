/**
 * What makes a string unsafe to store: a NUL character (PostgreSQL text and JSONB refuse it) or an
 * unpaired UTF-16 surrogate (it has no UTF-8 form, so the database refuses it too).
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point of this pattern
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The message a user reads when text holds a NUL character or an unpaired surrogate. */
export const UNSAFE_TEXT_MESSAGE =
  'must not contain NUL characters or unpaired UTF-16 surrogates (send valid Unicode text)';

/**
 * True when `text` can be stored and echoed as it is: no NUL character and no unpaired surrogate.
 *
 * @example
 * isSafeText('What is a topic?'); // true
 * isSafeText('a\u0000b'); // false
 */
export function isSafeText(text: string): boolean {
  return !UNSAFE_TEXT.test(text);
}

/**
 * What makes `text` unsafe, for a message ("a NUL character at position 3", "an unpaired UTF-16
 * surrogate (U+D800) at position 7"; positions count UTF-16 code units from 1), or undefined
 * when it is safe: "must not contain NUL characters or surrogates" alone leaves a client to hunt
 * for which one, and where, in a long text.
 *
 * @example
 * unsafeTextFound('a\u0000b'); // 'a NUL character at position 2'
 */
export function unsafeTextFound(text: string): string | undefined {
  const match = UNSAFE_TEXT.exec(text);
  if (!match) return undefined;
  const position = match.index + 1;
  if (match[0] === '\u0000') return `a NUL character at position ${position}`;
  const code = match[0].charCodeAt(0).toString(16).toUpperCase();
  return `an unpaired UTF-16 surrogate (U+${code}) at position ${position}`;
}

/** Deepest nesting of arrays and objects accepted in a request body. */
export const MAX_JSON_DEPTH = 64;

/** What is wrong with a parsed JSON value, if anything: too deep, or a string that is not safe text. */
export interface JsonProblem {
  kind: 'too_deep' | 'unsafe_text';
  /** Dotted path of the offending value (keys as sent). */
  path: string;
  /** For `unsafe_text`, what the key or string holds and where ({@link unsafeTextFound}). */
  found?: string;
}

/**
 * The message of an `unsafe_text` problem, naming the field (or `input` for the whole value),
 * the rule and what broke it.
 *
 * @example
 * unsafeTextMessage({ kind: 'unsafe_text', path: 'query', found: 'a NUL character at position 2' });
 * // 'query must not contain NUL characters or … (send valid Unicode text): it holds a NUL character at position 2.'
 */
export function unsafeTextMessage(problem: JsonProblem, whole = 'input'): string {
  const found = problem.found ? `: it holds ${problem.found}` : '';
  return `${problem.path || whole} ${UNSAFE_TEXT_MESSAGE}${found}.`;
}

/**
 * Checks a parsed JSON value without recursion (so no input can overflow the stack): nesting
 * deeper than `maxDepth`, or a key or string value holding a NUL character or an unpaired
 * surrogate (unless `text: false`: depth only). Returns the first problem found, or undefined.
 *
 * @example
 * findJsonProblem(JSON.parse(body)); // { kind: 'too_deep', path: 'a.0.b' } | undefined
 */
export function findJsonProblem(
  value: unknown,
  maxDepth = MAX_JSON_DEPTH,
  options: { text?: boolean } = {},
): JsonProblem | undefined {
  const checkText = options.text ?? true;
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (typeof item.value === 'string') {
      if (!checkText) continue;
      const found = unsafeTextFound(item.value);
      if (found) return { kind: 'unsafe_text', path: item.path, found };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= maxDepth) return { kind: 'too_deep', path: item.path };
    const entries = Array.isArray(item.value)
      ? item.value.map((inner, index) => [String(index), inner] as const)
      : Object.entries(item.value);
    for (const [key, inner] of entries) {
      const path = item.path ? `${item.path}.${key}` : key;
      const found = checkText ? unsafeTextFound(key) : undefined;
      if (found) return { kind: 'unsafe_text', path, found: `${found} of the key` };
      stack.push({ value: inner, depth: item.depth + 1, path });
    }
  }
  return undefined;
}
