import { describe, expect, it } from 'vitest';
import type { BookKnowledge } from '../schema/index.js';
import { BookKnowledge as BookKnowledgeSchema } from '../schema/index.js';
import { createKnowledgeRefresh, learnBookKnowledge } from './book-knowledge.js';

const chunk = (domain: string, text: string, title = 'Chapter') => ({
  domain,
  text,
  title,
  headingPath: [title],
});

/** A chunk as a store gives it back (`chunks.all()`). */
const storedChunk = (domain: string, text: string) => ({
  ...chunk(domain, text),
  id: 'x',
  source: 'a.md',
  ord: 0,
  hash: 'h',
  metadata: {},
});

describe('learnBookKnowledge', () => {
  it('counts each term once per chunk, by the chunk domain, in plain data', () => {
    const knowledge = learnBookKnowledge([
      chunk('hardware', 'The Jetson Orin runs the Jetson stack.'),
      chunk('module_info', 'A topic carries messages between nodes.'),
      chunk('module_info', 'Topics and services both carry messages.'),
    ]);
    const at = (domain: string) => knowledge.domains.indexOf(domain);
    expect(knowledge.chunks[at('module_info')]).toBe(2);
    expect(knowledge.terms.jetson?.[at('hardware')]).toBe(1);
    expect(knowledge.terms.topic?.[at('module_info')]).toBe(2);
    expect(knowledge.terms.messag?.[at('hardware')]).toBe(0);
    expect(knowledge.words.jetson).toBe(2);
    // Which chunks use a stem, for stems in at most a quarter of the chunks (none of 3 here).
    expect(knowledge.passages).toEqual({});
    // Plain data: it survives JSON and validates against its schema.
    expect(BookKnowledgeSchema.parse(JSON.parse(JSON.stringify(knowledge)))).toEqual(knowledge);
  });

  it('keeps terms, words and passages in the order first met, rows growing as domains appear', () => {
    const knowledge = learnBookKnowledge([
      chunk('hardware', 'Jetson boards run Jetson images on an A100.', 'Boards'),
      chunk('module_info', 'Boards carry topics; topic names carry a100 tags.', 'Topics'),
      chunk('capstone', 'Topics run.', 'Run'),
    ]);
    expect(knowledge.domains).toEqual(['hardware', 'module_info', 'capstone']);
    // In the order first met (a key that is a number comes first in any object).
    expect(Object.keys(knowledge.terms)).toEqual([
      '100',
      'board',
      'jetson',
      'run',
      'imag',
      'on',
      'an',
      'a',
      'a100',
      'topic',
      'carri',
      'name',
      'tag',
    ]);
    // A row holds a count for every domain, whenever its stem was first met.
    expect(knowledge.terms.jetson).toEqual([1, 0, 0]);
    expect(knowledge.terms.board).toEqual([1, 1, 0]);
    expect(knowledge.terms.topic).toEqual([0, 1, 1]);
    expect(knowledge.terms.a100).toEqual([1, 1, 0]);
    // Words count every use (the title and heading too); a stem counts once per chunk.
    expect(knowledge.words.boards).toBe(4);
    expect(knowledge.words.jetson).toBe(2);
    expect(Object.keys(knowledge.words).slice(1, 4)).toEqual(['boards', 'jetson', 'run']);
  });
});

describe('the licence page', () => {
  it('is noted when a chunk comes from a page named as the licence', () => {
    const body = chunk('general', 'You may share and adapt the material.');
    expect(learnBookKnowledge([body]).licencePage).toBeUndefined();
    expect(
      learnBookKnowledge([{ ...body, source: 'chapters/one.md' }]).licencePage,
    ).toBeUndefined();
    expect(learnBookKnowledge([{ ...body, source: 'license.md' }]).licencePage).toBe(true);
  });
});

describe('model names', () => {
  it('learns names written with letters and digits whole, beside their split words', () => {
    const knowledge = learnBookKnowledge([
      chunk('hardware', 'Rent an A100 on a p4d.24xlarge, or a T4 (g4dn).'),
      chunk('module_info', 'Version 2 of the planner.'),
    ]);
    const at = knowledge.domains.indexOf('hardware');
    expect(knowledge.terms.a100?.[at]).toBe(1);
    expect(knowledge.terms.p4d?.[at]).toBe(1);
    expect(knowledge.terms.g4dn?.[at]).toBe(1);
    expect(knowledge.terms.t4?.[at]).toBe(1);
    // A number and a word apart are no name; "24xlarge" starts with digits.
    expect(
      Object.keys(knowledge.terms)
        .filter((t) => /\d/.test(t) && /[a-z]/.test(t))
        .sort(),
    ).toEqual(['a100', 'g4dn', 'p4d', 't4']);
  });
});

describe('passages', () => {
  it('lists the chunks that use each stem in at most a quarter of them, in learning order', () => {
    const knowledge = learnBookKnowledge([
      chunk('hardware', 'The Jetson Orin runs the robot.'),
      ...Array.from({ length: 6 }, (_, i) => chunk('module_info', `The robot plans path ${i}.`)),
      chunk('module_info', 'A costmap marks obstacles for the robot.'),
    ]);
    expect(knowledge.passages?.jetson).toEqual([0]);
    expect(knowledge.passages?.costmap).toEqual([7]);
    // In every chunk: everywhere in the book, so no list is kept.
    expect(knowledge.passages?.robot).toBeUndefined();
    expect(knowledge.passages?.plan).toBeUndefined();
  });
});

describe('createKnowledgeRefresh', () => {
  it('learns at once, then again only when the store version changes, at most once per check period', async () => {
    let version = 'first';
    let reads = 0;
    let clock = 0;
    const store = {
      chunks: {
        version: async () => version,
        all: async () => {
          reads += 1;
          return [
            {
              ...chunk('capstone', `capstone text ${version}`),
              id: 'x',
              source: 'a.md',
              ord: 0,
              hash: 'h',
              metadata: {},
            },
          ];
        },
      },
    };
    let learnt: BookKnowledge | undefined;
    const router = {
      learn: (next: BookKnowledge) => {
        learnt = next;
      },
      get knowledge() {
        return learnt;
      },
    };
    const refresh = createKnowledgeRefresh(router, store as never, {
      checkMs: 1000,
      now: () => clock,
    });
    await refresh();
    expect(reads).toBe(1);
    expect(learnt?.version).toBe('first');
    version = 'second';
    await refresh(); // within the check period: not asked again
    expect(reads).toBe(1);
    clock = 2000;
    await refresh();
    expect(reads).toBe(2);
    expect(learnt?.terms.second).toBeDefined();
    clock = 4000;
    await refresh(); // same version: nothing re-read
    expect(reads).toBe(2);
  });
});

describe('createKnowledgeRefresh over a cache that keeps nothing (memory://)', () => {
  it('still trains at start (the calibration is read) but neither loads nor encodes a trained router', async () => {
    const calls: string[] = [];
    const store = {
      chunks: {
        version: async () => 'v1',
        contentHash: async () => {
          calls.push('contentHash');
          return 'h';
        },
        all: async () => [storedChunk('capstone', 'capstone text')],
      },
      cache: {
        saves: false,
        get: async () => {
          calls.push('get');
          return undefined;
        },
        put: async () => {
          calls.push('put');
        },
      },
    };
    let learnt: BookKnowledge | undefined;
    const router = {
      learn: (next: BookKnowledge) => {
        learnt = next;
      },
      get knowledge() {
        return learnt;
      },
      get calibration() {
        calls.push('calibration');
        return undefined;
      },
      get classifier() {
        calls.push('classifier');
        return undefined;
      },
    };
    await createKnowledgeRefresh(router, store as never, { fingerprint: 'f' })();
    expect(learnt?.version).toBe('v1');
    expect(calls).toEqual(['calibration']);
  });
});

describe('createKnowledgeRefresh, between learning and training', () => {
  it('lets the event loop run after learning the book, before the router trains', async () => {
    const order: string[] = [];
    const store = {
      chunks: {
        version: async () => 'v1',
        contentHash: async () => 'h',
        all: async () => [storedChunk('capstone', 'capstone text')],
      },
      cache: { get: async () => undefined, put: async () => undefined },
    };
    let learnt: BookKnowledge | undefined;
    const router = {
      learn: (next: BookKnowledge) => {
        learnt = next;
        // A message that arrives while the book is learnt (an engine's answer, a request).
        setImmediate(() => order.push('event loop'));
        order.push('learn');
      },
      get knowledge() {
        return learnt;
      },
      get calibration() {
        order.push('train');
        return undefined;
      },
    };
    await createKnowledgeRefresh(router, store as never, { fingerprint: 'f' })();
    expect(order).toEqual(['learn', 'event loop', 'train']);
  });
});
