import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest, prepareDocument, SAMPLE_BOOK_DIR } from '../retrieval/index.js';
import type { Store } from '../store/index.js';
import { testEngines } from '../test/test-engines.js';
import { createKnowledgeRefresh } from './book-knowledge.js';
import { createBookRegistry } from './book-registry.js';
import { createRouter } from './router.js';
import {
  decodeTrainedRouter,
  encodeTrainedRouter,
  TRAINED_ROUTER_CACHE,
  trainedRouterFingerprint,
  type TrainedRouter,
} from './trained-router-cache.js';

const registry = createBookRegistry();
const fingerprint = trainedRouterFingerprint(registry.all(), {});

/** The store with its chunk reads counted: a loaded router reads no chunk. */
function counting(store: Store) {
  const counts = { reads: 0 };
  const chunks = Object.create(store.chunks) as Store['chunks'];
  chunks.all = async () => {
    counts.reads += 1;
    return store.chunks.all();
  };
  return { counts, store: { chunks, cache: store.cache } };
}

/** A router kept in step with `store`, its trained state saved in (or loaded from) the cache. */
async function trainedRouter(store: Pick<Store, 'chunks' | 'cache'>, key = fingerprint) {
  const router = createRouter(registry);
  await createKnowledgeRefresh(router, store, { fingerprint: key })();
  return router;
}

// Questions of every kind the router decides: each agent's examples and keywords, and the book's
// own section headings (which ground in its knowledge).
const questions = async (store: Store) => [
  ...registry.all().flatMap((agent) => [...agent.examples, ...agent.keywords]),
  ...(await store.chunks.all()).map((chunk) => `What about ${chunk.headingPath.at(-1)}?`),
  "What does 'wanderlust' mean?",
];

for (const engine of testEngines()) {
  describe.skipIf(engine.skip)(
    `saved trained router on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`,
    () => {
      let store: Store;
      beforeAll(async () => {
        store = await engine.open();
        await ingest(SAMPLE_BOOK_DIR, { store });
      }, 60_000);
      afterAll(() => store.close());

      it('a loaded router routes every question exactly as a freshly trained one', async () => {
        const first = counting(store);
        const trained = await trainedRouter(first.store);
        expect(first.counts.reads).toBe(1);

        const second = counting(store);
        const loaded = await trainedRouter(second.store);
        // Loaded: no chunk read, no knowledge learnt from them.
        expect(second.counts.reads).toBe(0);
        expect(loaded.knowledge?.version).toBe(await store.chunks.version());
        expect(loaded.calibration).toEqual(trained.calibration);
        expect(loaded.calibration).toBeDefined();

        const all = await questions(store);
        expect(all.length).toBeGreaterThan(200);
        for (const question of all) expect(loaded.route(question)).toEqual(trained.route(question));
      });

      it('a loaded router uses the saved intent classifier instead of training one', async () => {
        const trained = await trainedRouter(store);
        const key = createHash('sha1')
          .update(await store.chunks.contentHash())
          .update(fingerprint)
          .digest('hex');
        const saved = decodeTrainedRouter(
          (await store.cache.get(TRAINED_ROUTER_CACHE, key)) ?? new Uint8Array(),
        );
        expect(saved?.classifier?.stats).toEqual(trained.stats);
        // A saved temperature no training would fit shows whether it was loaded or trained again.
        const classifier = saved?.classifier && { ...saved.classifier, temperature: 0.123 };
        await store.cache.put(
          TRAINED_ROUTER_CACHE,
          key,
          encodeTrainedRouter({
            ...(saved as TrainedRouter),
            ...(classifier ? { classifier } : {}),
          }),
        );
        const loaded = await trainedRouter(store);
        expect(loaded.classifier.temperature).toBe(0.123);
        expect(loaded.classifier.logProbabilities).toEqual(trained.classifier.logProbabilities);
      });

      it('another router (agents, options or code) trains again instead of loading', async () => {
        await trainedRouter(store);
        const other = counting(store);
        await trainedRouter(other.store, `${fingerprint}-other`);
        expect(other.counts.reads).toBe(1);
      });

      it('changed chunks make the router learn again, from the new chunks', async () => {
        await trainedRouter(store);
        const { document, chunks } = prepareDocument(
          'zz-quadrupeds.md',
          '# Quadruped gaits\n\nA trotting quadruped moves diagonal leg pairs together.',
        );
        await store.chunks.upsertDocument({ ...document, domain: 'hardware' }, chunks);
        const after = counting(store);
        const router = await trainedRouter(after.store);
        expect(after.counts.reads).toBe(1);
        expect(router.knowledge?.terms.quadrup).toBeDefined();
        // And that is saved in turn: the next process loads it.
        const next = counting(store);
        expect((await trainedRouter(next.store)).knowledge?.terms.quadrup).toBeDefined();
        expect(next.counts.reads).toBe(0);
      });
    },
  );
}
