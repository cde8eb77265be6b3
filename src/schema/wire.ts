const UPPER_A = 65;
const UPPER_Z = 90;

/**
 * A camelCase key (or dotted path) in wire form: `agentUsed` → `agent_used`. A loop over the
 * characters rather than a regular expression with a replacer: it runs for every key of every
 * request and response body, and a key with no capital (most of them) comes back as it is.
 */
export const wireKey = (key: string): string => {
  let out: string | undefined;
  let from = 0;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code < UPPER_A || code > UPPER_Z) continue;
    out = (out ?? '') + key.slice(from, i) + '_' + String.fromCharCode(code + 32);
    from = i + 1;
  }
  return out === undefined ? key : out + key.slice(from);
};
/** A camelCase key in wire form, at the type level: `agentUsed` → `agent_used`. */
export type WireKey<K extends string> = K extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${WireKey<Tail>}`
  : K;

/**
 * The type of `toWire(value)` for a value of type `T`: snake_case keys all the way down, dates as
 * ISO strings. Clients (the web page) derive their wire types from the zod schemas with it.
 *
 * @example
 * type WireCitation = Wire<Citation>; // { index: number; relevance_score: number; ... }
 */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? Wire<Item>[]
    : T extends object
      ? { [K in keyof T as K extends string ? WireKey<K> : K]: Wire<T[K]> }
      : T;

const CAMEL_PART = /_([a-z0-9])/g;
/** A wire key in camelCase: `session_id` → `sessionId`; a key with no `_` comes back as it is. */
const camel = (key: string) =>
  key.indexOf('_') === -1 ? key : key.replace(CAMEL_PART, (_, c: string) => c.toUpperCase());

/**
 * Deepest nesting {@link toWire} and {@link fromWire} walk. Far beyond any value cohort makes; a
 * deeper one (hostile input that slipped past a boundary check) is refused instead of overflowing
 * the stack.
 */
export const MAX_WIRE_DEPTH = 256;

function mapKeys(value: unknown, rename: (key: string) => string, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_WIRE_DEPTH) {
    throw new RangeError(`The value is nested more than ${MAX_WIRE_DEPTH} levels deep.`);
  }
  if (Array.isArray(value)) return value.map((item) => mapKeys(item, rename, depth + 1));
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) out[rename(key)] = mapKeys(source[key], rename, depth + 1);
  return out;
}

/**
 * The JSON wire form of a value: snake_case keys as in the specs' API schemas (`agent_used`,
 * `routing_confidence`). Used by the HTTP API and `--json` output.
 *
 * @example
 * toWire({ agentUsed: 'glossary' }); // { agent_used: 'glossary' }
 */
export function toWire<T>(value: T): Wire<T> {
  return mapKeys(value, wireKey) as Wire<T>;
}

/** Reads a wire (snake_case) value back into cohort's camelCase form. */
export function fromWire(value: unknown): unknown {
  return mapKeys(value, camel);
}
