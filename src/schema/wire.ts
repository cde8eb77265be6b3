/** A camelCase key (or dotted path) in wire form: `agentUsed` → `agent_used`. */
export const wireKey = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapKeys(item, rename));
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[rename(key)] = mapKeys(inner, rename);
  return out;
}

/**
 * The JSON wire form of a value: snake_case keys as in the specs' API schemas (`agent_used`,
 * `routing_confidence`). Used by the HTTP API and `--json` output.
 *
 * @example
 * toWire({ agentUsed: 'glossary' }); // { agent_used: 'glossary' }
 */
export function toWire(value: unknown): unknown {
  return mapKeys(value, wireKey);
}

/** Reads a wire (snake_case) value back into cohort's camelCase form. */
export function fromWire(value: unknown): unknown {
  return mapKeys(value, camel);
}
