import { inspect } from 'node:util';
import { asSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

describe('lazySchema', () => {
  it('builds the schema on first use, once', () => {
    let builds = 0;
    const Point = lazySchema(() => {
      builds++;
      return z.object({ x: z.number(), y: z.number() });
    });
    expect(builds).toBe(0);
    expect(Point.parse({ x: 1, y: 2 })).toEqual({ x: 1, y: 2 });
    expect(Point.safeParse({ x: 1 }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('behaves as the schema it builds: errors, shape, extend, instanceof, nesting', () => {
    const build = () => z.object({ name: z.string().min(1, 'name must not be empty') });
    const Named = lazySchema(build);
    const eager = build();
    expect(Named.safeParse({ name: '' }).error?.issues).toEqual(
      eager.safeParse({ name: '' }).error?.issues,
    );
    expect(Named instanceof z.ZodObject).toBe(true);
    expect(Object.keys(Named.shape)).toEqual(['name']);
    expect(Named.extend({ age: z.number() }).parse({ name: 'a', age: 1 })).toEqual({
      name: 'a',
      age: 1,
    });
    expect('_zod' in Named).toBe(true);
    // Spreading reads zod's non-configurable `_zod` descriptor, which a proxy must report faithfully.
    expect({ ...Named }.def).toBe(Named.def);
    expect(inspect(Named)).toMatch(/^ZodObject \{/);
    const Outer = z.object({ inner: Named, list: z.array(Named).optional() });
    expect(Outer.parse({ inner: { name: 'a' }, list: [{ name: 'b' }] }).list).toEqual([
      { name: 'b' },
    ]);
    expect(Outer.safeParse({ inner: { name: '' } }).error?.issues[0]?.path).toEqual([
      'inner',
      'name',
    ]);
  });

  it('gives the same JSON Schema, description included, to zod and to the AI SDK', () => {
    const build = () =>
      z.object({ query: z.string().describe('what to search for') }).describe('a search');
    const Search = lazySchema(build);
    const expected = z.toJSONSchema(build());
    expect(z.toJSONSchema(Search)).toEqual(expected);
    expect(z.toJSONSchema(z.object({ search: Search })).properties?.search).toEqual(
      z.toJSONSchema(z.object({ search: build() })).properties?.search,
    );
    expect(asSchema(Search).jsonSchema).toMatchObject({ description: 'a search' });
  });
});
