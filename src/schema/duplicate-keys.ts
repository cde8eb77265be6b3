/** A key given twice in one JSON object, and where that object is (`a.0.b`; empty at the top). */
export interface DuplicateKey {
  key: string;
  path: string;
}

/** A JSON string token, matched at `lastIndex`: quotes around characters and escapes. */
const STRING_AT = /"[^"\\]*(?:\\.[^"\\]*)*"/y;
const BACKSLASH = 92;

/**
 * How many keys the text of a JSON value writes: one `:` outside strings per key. Native
 * `indexOf` jumps from quote to quote and colon to colon, each search starting where the last
 * ended, so the text is read once however it is made.
 */
function writtenKeys(text: string): number {
  let count = 0;
  let from = 0;
  let colon = text.indexOf(':');
  for (;;) {
    const open = text.indexOf('"', from);
    const end = open === -1 ? text.length : open;
    while (colon !== -1 && colon < end) {
      count += 1;
      colon = text.indexOf(':', colon + 1);
    }
    if (open === -1) return count;
    // The closing quote: the next one not escaped (after an even run of backslashes).
    let close = text.indexOf('"', open + 1);
    for (;;) {
      if (close === -1) return count;
      let slashes = 0;
      while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes += 1;
      if (slashes % 2 === 0) break;
      close = text.indexOf('"', close + 1);
    }
    from = close + 1;
    if (colon !== -1 && colon < from) colon = text.indexOf(':', from);
  }
}

/** How many keys the parsed value holds, every object's own keys counted once. */
function heldKeys(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop() as Record<string, unknown> | unknown[];
    if (Array.isArray(item)) {
      for (const child of item) if (child !== null && typeof child === 'object') stack.push(child);
      continue;
    }
    const keys = Object.keys(item);
    count += keys.length;
    for (const key of keys) {
      const child = item[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return count;
}

interface Frame {
  /** An object's keys so far; undefined for an array. */
  keys?: Set<string>;
  /** The key or index being read in this object or array. */
  at: string;
  index: number;
}

/** Walks the text's tokens to the first key an object was given before. */
function firstDuplicate(text: string): DuplicateKey | undefined {
  const stack: Frame[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      STRING_AT.lastIndex = i;
      const token = STRING_AT.exec(text)?.[0] ?? '"';
      const top = stack.at(-1);
      if (top?.keys && expectKey) {
        const key = token.includes('\\') ? (JSON.parse(token) as string) : token.slice(1, -1);
        if (top.keys.has(key)) {
          return {
            key,
            path: stack
              .slice(0, -1)
              .map((frame) => frame.at)
              .join('.'),
          };
        }
        top.keys.add(key);
        top.at = key;
        expectKey = false;
      }
      i += token.length - 1;
    } else if (c === '{') {
      stack.push({ keys: new Set(), at: '', index: 0 });
      expectKey = true;
    } else if (c === '[') {
      stack.push({ at: '0', index: 0 });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack.at(-1);
      if (top?.keys) expectKey = true;
      else if (top) top.at = String((top.index += 1));
    }
  }
  return undefined;
}

/**
 * The first key that `text`, the JSON text `parsed` was read from, gives twice in one object
 * (`{"query":"a","query":"b"}`), or undefined when every object's keys are distinct.
 * `JSON.parse` keeps the last value of a repeated key without a word, so a body or file that
 * says two things would be read as the second. Linear, and no second parse: the keys the text
 * writes (a `:` outside strings each) are counted with native searches and compared with the keys
 * the value holds; only when they differ (a key was repeated) is the text walked token by token
 * to name the key.
 *
 * @example
 * const text = '{"query":"a","query":"b"}';
 * findDuplicateKey(text, JSON.parse(text)); // { key: 'query', path: '' }
 */
export function findDuplicateKey(text: string, parsed: unknown): DuplicateKey | undefined {
  if (parsed === null || typeof parsed !== 'object') return undefined;
  if (writtenKeys(text) === heldKeys(parsed)) return undefined;
  return firstDuplicate(text);
}

/**
 * How a duplicate key reads in an error: `the key "query" twice` or, inside, `the key "x" twice
 * in "a.0"`.
 *
 * @example
 * duplicateKeyMessage({ key: 'query', path: '' }); // 'the key "query" twice'
 */
export function duplicateKeyMessage(duplicate: DuplicateKey): string {
  return `the key ${JSON.stringify(duplicate.key)} twice${duplicate.path ? ` in "${duplicate.path}"` : ''}`;
}
