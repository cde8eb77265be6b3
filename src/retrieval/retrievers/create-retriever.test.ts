import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../../errors/index.js';
import { ChunkRecord, RetrievedChunk } from '../../schema/index.js';
import { createStore, openPgliteDb, type Store } from '../../store/index.js';
import { createRetriever, createRetrieverFromChunks } from './create-retriever.js';
import { prepareDocument } from '../ingest/ingest.js';

const book = `# Robot Course

## Jetson Boards

The Jetson Orin Nano is a small GPU computer mounted on the robot for running neural networks at the edge.

## Capstone Demo

The final capstone demo combines walking, grasping and a spoken command into one autonomous run.

## Zero Moment Point

The Zero Moment Point (ZMP) must stay inside the support polygon for the humanoid to walk without tipping.

## Topics

Topics carry messages from publishers to subscribers; a node may publish to many topics at once.
`;

const { document, chunks } = prepareDocument('course.md', book);
const tagged: ChunkRecord[] = chunks.map((c) =>
  c.headingPath.at(-1) === 'Jetson Boards'
    ? { ...c, domain: 'hardware' }
    : { ...c, domain: 'module_info' },
);

describe('createRetrieverFromChunks', () => {
  const retriever = createRetrieverFromChunks(tagged);

  it('returns valid RetrievedChunks with a readable section and 0..1 scores', async () => {
    const results = await retriever.retrieve('how does a node publish messages on topics', {
      limit: 3,
    });
    expect(results[0]?.section).toBe('Topics');
    for (const result of results) {
      expect(RetrievedChunk.parse(result)).toEqual(result);
      expect(result.score).toBeGreaterThanOrEqual(0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
    expect(results[0]?.score).toBeGreaterThan(0.5);
  });

  it('scores an unrelated question low', async () => {
    const results = await retriever.retrieve('tell me a joke about cooking pasta');
    expect(results[0]?.score ?? 0).toBeLessThan(0.2);
  });

  it('expands acronyms both ways', async () => {
    const results = await retriever.retrieve('what keeps the ZMP in place');
    expect(results[0]?.section).toBe('Zero Moment Point');
  });

  it('filters by domain and falls back to the whole book with a flag', async () => {
    const inDomain = await retriever.retrieve('small computer for neural networks', {
      domain: 'hardware',
    });
    expect(inDomain.every((r) => r.domain === 'hardware')).toBe(true);
    expect(inDomain[0]?.metadata.domainFallback).toBeUndefined();

    const fallback = await retriever.retrieve('publishers and subscribers on topics', {
      domain: 'hardware',
    });
    expect(fallback[0]?.section).toBe('Topics');
    expect(fallback.every((r) => r.metadata.domainFallback === true)).toBe(true);

    const empty = await retriever.retrieve('publishers and subscribers on topics', {
      domain: 'glossary',
    });
    expect(empty[0]?.metadata.domainFallback).toBe(true);
  });

  it('prefers the domain, but not over a clearly better passage elsewhere', async () => {
    const prose = `# Lab Notes

## Battery Packs

The robot battery pack stores energy for two hours of walking on one charge.

## Charging Dock

The charging dock refills the battery pack while the robot rests.

## Gait Energy

Walking costs energy: each step of the gait spends battery charge on the knee motors.
`;
    const lab = prepareDocument('lab.md', prose).chunks.map((c) => ({
      ...c,
      domain: c.headingPath.at(-1) === 'Gait Energy' ? 'module_info' : 'hardware',
    }));
    const labRetriever = createRetrieverFromChunks(lab);
    // Both domains answer about the battery pack; the hardware passages stay first.
    const close = await labRetriever.retrieve('battery pack charge', { domain: 'hardware' });
    expect(close.slice(0, 2).every((r) => r.domain === 'hardware')).toBe(true);
    // A gait question asked of the hardware agent: the module chapter is clearly better.
    const better = await labRetriever.retrieve('walking energy per gait step', {
      domain: 'hardware',
    });
    expect(better[0]?.section).toBe('Gait Energy');
    expect(better[0]?.metadata.domainFallback).toBeUndefined();
  });

  it('keeps the book’s other answers when the domain has only one relevant passage', async () => {
    // A small glossary domain: one section shares a word with the question, the others none.
    const notes = `# Field Notes

## Task Definition

Task settings: which nodes start together in each training run, and their reward.

## What is a Gripper?

A gripper is the hand of a robot arm.

## What is a Wheel?

A wheel turns on an axle.

## Launch Files

A launch file starts several nodes at once, each with its settings.

## Launch Arguments

Launch arguments pass settings to the nodes a launch file starts.
`;
    const chunks = prepareDocument('notes.md', notes).chunks.map((c) => ({
      ...c,
      domain: /Task|What is/.test(c.headingPath.at(-1) ?? '') ? 'glossary' : 'module_info',
    }));
    const notesRetriever = createRetrieverFromChunks(chunks);
    const found = await notesRetriever.retrieve('start many nodes together with their settings', {
      domain: 'glossary',
      limit: 3,
    });
    // The domain's related passage comes first, and no longer hides both launch sections behind
    // its two unrelated neighbours (they were left out: the glossary's best passage was the best).
    expect(found[0]?.section).toBe('Task Definition');
    expect(found.map((r) => r.section)).toEqual(
      expect.arrayContaining(['Launch Files', 'Launch Arguments']),
    );
    expect(found.some((r) => r.section === 'What is a Wheel?')).toBe(false);
    expect(found.every((r) => r.metadata.domainFallback === undefined)).toBe(true);
  });

  it('rejects an aborted signal and an empty query', async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = await retriever
      .retrieve('topics', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(isCohortError(aborted, 'aborted')).toBe(true);
    const empty = await retriever.retrieve('  ').catch((e: unknown) => e);
    expect(isCohortError(empty, 'invalid_input')).toBe(true);
  });

  it('ranks with plain BM25 when asked', async () => {
    const bm25 = createRetrieverFromChunks(tagged, { techniques: 'bm25' });
    expect((await bm25.retrieve('zero moment point'))[0]?.section).toBe('Zero Moment Point');
  });
});

describe('createRetriever over a store', () => {
  let store: Store;
  beforeAll(async () => {
    store = await createStore(await openPgliteDb('memory://'));
  });
  afterAll(() => store.close());

  it('builds lazily and rebuilds when the store changes', async () => {
    const retriever = createRetriever(store, { versionCheckMs: 0 });
    expect(await retriever.retrieve('topics')).toEqual([]);
    await store.chunks.upsertDocument(document, tagged);
    expect((await retriever.retrieve('publishers and subscribers'))[0]?.source).toBe('course.md');
  });

  it('reads a query in the book spelling without waiting once the index is built', async () => {
    await store.chunks.upsertDocument(document, tagged);
    const retriever = createRetriever(store);
    // Routing cannot wait for the store: before the index is built the question stays as typed.
    expect(retriever.readQueryNow('who are the subscrbers?').text).toBe('who are the subscrbers?');
    await retriever.warm();
    expect(retriever.readQueryNow('who are the subscrbers?').text).toBe('who are the subscribers?');
    expect(await retriever.readQuery('who are the subscrbers?')).toEqual(
      retriever.readQueryNow('who are the subscrbers?'),
    );
  });

  it('asks the store for its version at most once per interval, and again after invalidate', async () => {
    let versionCalls = 0;
    // The real repository, with its version() counted.
    const chunks: Store['chunks'] = Object.create(store.chunks);
    chunks.version = () => {
      versionCalls += 1;
      return store.chunks.version();
    };
    const counting = { chunks };
    let clock = 0;
    const retriever = createRetriever(counting, { versionCheckMs: 1000, now: () => clock });
    await retriever.retrieve('topics');
    await retriever.retrieve('topics');
    expect(versionCalls).toBe(1);
    clock = 999;
    await retriever.retrieve('topics');
    expect(versionCalls).toBe(1);
    clock = 1000;
    await retriever.retrieve('topics');
    expect(versionCalls).toBe(2);
    retriever.invalidate();
    await retriever.retrieve('topics');
    expect(versionCalls).toBe(3);
  });

  it('asks once for a burst of queries that arrive while the version check is under way', async () => {
    let versionCalls = 0;
    const answers: (() => void)[] = [];
    const chunks: Store['chunks'] = Object.create(store.chunks);
    chunks.version = async () => {
      versionCalls += 1;
      // Held until released, so the burst arrives while the check is under way.
      await new Promise<void>((resolve) => answers.push(resolve));
      return store.chunks.version();
    };
    let clock = 0;
    const retriever = createRetriever({ chunks }, { versionCheckMs: 1000, now: () => clock });
    await Promise.all([retriever.warm(), Promise.resolve().then(() => answers.shift()?.())]);
    clock = 2000;
    const burst = Array.from({ length: 20 }, () => retriever.retrieve('topics'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(versionCalls).toBe(2);
    // A check begun before `invalidate()` answers the queries that joined it, but is neither
    // joined afterwards nor trusted as fresh: the next query asks again.
    retriever.invalidate();
    answers.shift()?.();
    await Promise.all(burst);
    const after = retriever.retrieve('topics');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(versionCalls).toBe(3);
    answers.shift()?.();
    await after;
    await retriever.retrieve('topics');
    expect(versionCalls).toBe(3);
  });

  it('sees re-ingested chunks once the interval has passed', async () => {
    let clock = 0;
    const retriever = createRetriever(store, { versionCheckMs: 1000, now: () => clock });
    const before = await retriever.retrieve('gait cycle stance swing');
    expect(before.some((r) => r.source === 'walk.md')).toBe(false);
    const walk = prepareDocument(
      'walk.md',
      '# Walking\n\n## Gait\n\nA gait cycle alternates stance and swing phases.\n',
    );
    await store.chunks.upsertDocument(walk.document, walk.chunks);
    clock = 500;
    const cached = await retriever.retrieve('gait cycle stance swing');
    expect(cached.some((r) => r.source === 'walk.md')).toBe(false);
    clock = 1500;
    expect((await retriever.retrieve('gait cycle stance swing'))[0]?.source).toBe('walk.md');
  });
});
