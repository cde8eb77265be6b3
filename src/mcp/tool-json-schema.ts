import * as z from 'zod';
import { wireKey } from '../schema/index.js';

/** A JSON Schema for an MCP tool's input or output: always an object. */
export interface ToolJsonSchema {
  type: 'object';
  properties?: Record<string, object>;
  required?: string[];
  [key: string]: unknown;
}

function renameKeys(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(renameKeys);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [wireKey(name), renameKeys(inner)]),
      );
    } else if (key === 'required' && Array.isArray(value)) {
      out[key] = value.map((name) => (typeof name === 'string' ? wireKey(name) : name));
    } else {
      out[key] = renameKeys(value);
    }
  }
  return out;
}

/**
 * The JSON Schema a client sees for a cohort schema, in wire form (snake_case keys, as the HTTP
 * API takes them). The schema itself stays the one source of truth: arguments are validated with
 * it, not with this description.
 *
 * @example
 * wireJsonSchema(ChatRequest); // { type: 'object', properties: { query, session_id, … }, … }
 */
export function wireJsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output' = 'input',
): ToolJsonSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return { ...(renameKeys(json) as Record<string, unknown>), type: 'object' };
}
