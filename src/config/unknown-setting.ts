import * as z from 'zod';

/** The object schema inside defaults, optionals and pipes, or undefined when it is not one. */
function objectInside(schema: z.ZodType): z.ZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  if (
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable
  ) {
    return objectInside(schema.def.innerType as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) return objectInside(schema.in as z.ZodType);
  return undefined;
}

/** A setting the schema does not know: its dotted path, and the names its object does take. */
export interface UnknownSetting {
  path: string;
  /** The dotted path of the object it is in ("routing"); empty at the top of the file. */
  within: string;
  known: string[];
}

/**
 * The first key of a settings file that `schema` does not know, at any depth of its plain
 * objects (a `looseObject` or a record, such as the MCP servers by name, takes any key). zod
 * drops unknown keys without a word, so a misspelt setting (`"routng"`, `"minScor"`) would be
 * ignored and the default used; the loader names it instead.
 *
 * @example
 * findUnknownSetting(CohortConfig, { routing: { minScor: 0.2 } });
 * // { path: 'routing.minScor', within: 'routing', known: ['threshold', 'minScore', …] }
 */
export function findUnknownSetting(
  schema: z.ZodType,
  value: unknown,
  prefix = '',
): UnknownSetting | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const object = objectInside(schema);
  if (!object || object.def.catchall !== undefined) return undefined;
  const shape = object.shape as Record<string, z.ZodType>;
  for (const [key, inner] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!field) return { path, within: prefix, known: Object.keys(shape) };
    const deeper = findUnknownSetting(field, inner, path);
    if (deeper) return deeper;
  }
  return undefined;
}
