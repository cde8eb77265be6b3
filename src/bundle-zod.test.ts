import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type * as Cohort from './index.js';
import { createScriptedModel } from './test/scripted-model.js';

// `npm run build` bundles cohort's own copy of zod (scripts/bundle.mjs), so `import('cohort')`
// does not load zod's 100 modules. A user's schemas are built with the user's zod: wherever the
// public API takes a schema, or hands one out, the two copies must work together.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const entry = join(ROOT, 'dist/index.js');
const built = existsSync(entry);
type Tool = Parameters<typeof Cohort.spawnSubagent>[0]['tools'][number];
const load = async () => (await import(pathToFileURL(entry).href)) as typeof Cohort;

describe.skipIf(!built)('the bundle’s zod beside the user’s zod', () => {
  it('is a copy of its own (what the other tests rely on)', async () => {
    const cohort = await load();
    expect(Object.getPrototypeOf(cohort.ChatRequest)).not.toBe(z.ZodObject.prototype);
  });

  it('parseInput validates with a user’s schema and names the wrong field', async () => {
    const { parseInput, isCohortError } = await load();
    const schema = z.object({ count: z.number().int().min(1) });
    expect(parseInput(schema, { count: 3 })).toEqual({ count: 3 });
    let thrown: unknown;
    try {
      parseInput(schema, { count: 0 });
    } catch (error) {
      thrown = error;
    }
    expect(isCohortError(thrown)).toBe(true);
    expect((thrown as Cohort.CohortError).code).toBe('invalid_input');
    expect((thrown as Error).message).toMatch(/count/);
  });

  it('cohort’s schemas compose into a user’s schemas, parse and convert to JSON Schema there', async () => {
    const { ChatRequest } = await load();
    const wrapped = z.object({ request: ChatRequest, tag: z.string() });
    expect(wrapped.parse({ request: { query: 'What is a topic?' }, tag: 'a' })).toMatchObject({
      request: { query: 'What is a topic?' },
    });
    expect(wrapped.safeParse({ request: { query: '' }, tag: 'a' }).success).toBe(false);
    const json = z.toJSONSchema(ChatRequest) as { properties?: Record<string, unknown> };
    expect(Object.keys(json.properties ?? {})).toContain('query');
  });

  it('a subagent shows the model a user’s tool schema and validates the tool’s input with it', async () => {
    const { spawnSubagent, loadConfig } = await load();
    const executed: unknown[] = [];
    const add = {
      name: 'add',
      description: 'Adds two numbers.',
      inputSchema: z.object({ a: z.number().describe('first addend'), b: z.number() }),
      execute: (input: { a: number; b: number }) => {
        executed.push(input);
        return { sum: input.a + input.b };
      },
    };
    const model = createScriptedModel(
      [
        { toolCalls: [{ toolName: 'add', input: { a: 'two', b: 3 } }] },
        { toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 } }] },
        { text: 'The sum is 5.' },
      ],
      { record: true },
    );
    const type = {
      name: 'adder',
      description: 'Adds numbers.',
      disallowedTools: [],
      model: 'inherit',
      skills: [],
      systemPrompt: 'You add numbers with the add tool.',
      source: 'builtin',
      extra: {},
    };
    const result = await spawnSubagent(
      {
        model: () => model,
        parentModel: 'scripted',
        config: loadConfig({ env: {}, cwd: ROOT }),
        tools: [add as unknown as Tool],
        types: new Map([['adder', type]]),
        depth: 0,
      },
      { type: 'adder', prompt: 'What is 2 + 3?' },
    );
    expect(result.status).toBe('completed');
    // The bad input was refused by the user's schema (the model was told which field); the good one ran.
    expect(executed).toEqual([{ a: 2, b: 3 }]);
    expect(JSON.stringify(model.calls[1]?.prompt)).toMatch(/Invalid input|expected number/i);
    const shown = model.calls[0]?.tools?.find((tool) => tool.name === 'add') as {
      inputSchema: { properties: object };
    };
    expect(shown.inputSchema.properties).toMatchObject({
      a: { type: 'number', description: 'first addend' },
      b: { type: 'number' },
    });
  });
});
