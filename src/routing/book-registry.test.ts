import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRouter } from './router.js';
import { createBookRegistry, defaultAgentsDir } from './book-registry.js';

const DEV_SET = resolve(import.meta.dirname, '../../../shared/eval/routing-dev.jsonl');

describe('createBookRegistry', () => {
  const registry = createBookRegistry();

  it('loads the five book agents with book as the fallback', () => {
    expect(
      registry
        .all()
        .map((agent) => agent.name)
        .sort(),
    ).toEqual(['book', 'capstone', 'glossary', 'hardware', 'module_info']);
    expect(registry.defaultAgent.name).toBe('book');
    expect(defaultAgentsDir()).toMatch(/agents[\\/]$/);
  });

  it('gives every agent enough examples, a grounded prompt and a retrieval domain for specialists', () => {
    for (const agent of registry.all()) {
      expect(agent.examples.length).toBeGreaterThanOrEqual(25);
      expect(agent.keywords.length).toBeGreaterThanOrEqual(3);
      expect(agent.systemPrompt).toMatch(/retrieve/);
      expect(agent.systemPrompt).toMatch(/cite|citations/i);
      expect(agent.retrievalDomain).toBe(agent.fallback ? undefined : agent.name);
    }
  });

  it('estimates generalisation by leave-one-out on the examples', () => {
    // Measured 92.8% on 195 examples; the floor catches an example edit that confuses two agents.
    expect(createRouter(registry).stats.looAccuracy).toBeGreaterThan(0.85);
  });

  it('refuses an empty or missing agent folder', () => {
    expect(() => createBookRegistry(['/nonexistent/agents'])).toThrow(/Cannot read agent folder/);
  });

  it.skipIf(!existsSync(DEV_SET))(
    'does not copy dev-set questions into examples (skipped without ../shared)',
    () => {
      const dev = new Set(
        readFileSync(DEV_SET, 'utf8')
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { query: string }).query.toLowerCase()),
      );
      const copies = registry
        .all()
        .flatMap((agent) => agent.examples.filter((example) => dev.has(example.toLowerCase())));
      expect(copies).toEqual([]);
    },
  );
});
