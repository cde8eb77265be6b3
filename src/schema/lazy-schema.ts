import * as z from 'zod';

/**
 * A module-level schema built on first use rather than when its module loads. Why: cohort declares
 * ~1,650 zod schemas at module level (configuration, wire formats, server bodies, tool inputs),
 * and building them all was a fifth of `import('cohort')`, though a program uses a few of them.
 *
 * The value stands for the schema `build` returns, with its type: parsing, `.shape`, `.extend`,
 * `instanceof`, nesting in another schema, `z.toJSONSchema` and the AI SDK's tools see the built
 * schema (it is a proxy that builds it on the first look and forwards every operation to it).
 * Metadata `build` attaches (`.describe`, `.meta`) is registered for the proxy too, so JSON Schema
 * made from it keeps the description. Not exported from `cohort`: the public schemas keep their
 * types and behaviour, only when they are built changes (src/bundle.test.ts counts the schemas
 * `import('cohort')` builds).
 *
 * @example
 * export const Citation = lazySchema(() => z.object({ index: z.number().int().min(1) }));
 * export type Citation = z.infer<typeof Citation>;
 */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let built: T | undefined;
  // The proxy's own target stays an empty object; a non-configurable property of the schema is
  // copied onto it when reported, as the proxy invariants require (zod's `_zod` is one).
  const stand = {} as T;
  const schema = (): T => {
    if (built === undefined) {
      built = build();
      const meta = z.globalRegistry.get(built);
      if (meta !== undefined) z.globalRegistry.add(proxy, meta);
    }
    return built;
  };
  // Node's `util.inspect` (console.log) shows a proxy's target, not what its traps forward to.
  Object.defineProperty(stand, Symbol.for('nodejs.util.inspect.custom'), {
    value: (
      _depth: number,
      options: object,
      inspect: (value: unknown, options: object) => string,
    ) => inspect(schema(), options),
    configurable: true,
  });
  const proxy: T = new Proxy(stand, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      if (descriptor?.configurable === false) Reflect.defineProperty(stand, key, descriptor);
      return descriptor;
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
  return proxy;
}
