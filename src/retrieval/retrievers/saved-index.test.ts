import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../schema/index.js';
import { chunkContentHash, type Store } from '../../store/index.js';
import { testEngines } from '../../test/test-engines.js';
import { ingest } from '../ingest/ingest.js';
import { prepareDocument } from '../ingest/ingest.js';
import { SAMPLE_BOOK_DIR } from '../open-knowledge-base.js';
import {
  createRetriever,
  createRetrieverFromChunks,
  LEXICAL_INDEX_CACHE,
} from './create-retriever.js';

/** Questions from every section's heading and first words: many queries, each with several terms. */
function questionsOf(chunks: readonly ChunkRecord[]): string[] {
  return chunks.map(
    (chunk) =>
      `${chunk.headingPath.at(-1) ?? chunk.title} ${chunk.text.split(/\s+/).slice(0, 6).join(' ')}`,
  );
}

/** The store with its build cache's reads and writes counted. */
function counting(store: Store) {
  const counts = { gets: 0, hits: 0, puts: 0 };
  const cache = {
    get: async (name: string, key: string) => {
      counts.gets += 1;
      const bytes = await store.cache.get(name, key);
      if (bytes) counts.hits += 1;
      return bytes;
    },
    put: async (name: string, key: string, data: Uint8Array) => {
      counts.puts += 1;
      await store.cache.put(name, key, data);
    },
    clear: () => store.cache.clear(),
  };
  return { counts, store: { chunks: store.chunks, cache: cache as unknown as Store['cache'] } };
}

for (const engine of testEngines()) {
  describe.skipIf(engine.skip)(
    `saved lexical index on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`,
    () => {
      let store: Store;
      beforeAll(async () => {
        store = await engine.open();
        await ingest(SAMPLE_BOOK_DIR, { store });
      }, 60_000);
      afterAll(() => store.close());

      it('the engine hashes the chunks as the chunks read from it hash', async () => {
        expect(await store.chunks.contentHash()).toBe(chunkContentHash(await store.chunks.all()));
      });

      it('a loaded index ranks every query exactly as a rebuilt one', async () => {
        const chunks = await store.chunks.all();
        const first = counting(store);
        await createRetriever(first.store).warm();
        expect(first.counts).toEqual({ gets: 1, hits: 0, puts: 1 });

        const second = counting(store);
        const loaded = createRetriever(second.store);
        await loaded.warm();
        // Loaded: read from the cache, nothing built or written.
        expect(second.counts).toEqual({ gets: 1, hits: 1, puts: 0 });

        const rebuilt = createRetrieverFromChunks(chunks);
        const questions = questionsOf(chunks);
        expect(questions.length).toBeGreaterThan(100);
        for (const question of questions) {
          for (const domain of [undefined, 'hardware']) {
            const options = { limit: 10, ...(domain ? { domain } : {}) };
            expect(await loaded.retrieve(question, options)).toEqual(
              await rebuilt.retrieve(question, options),
            );
          }
        }
      });

      it('changed chunks empty the cache and the index is built again from them', async () => {
        await createRetriever(store).warm();
        const { document, chunks } = prepareDocument(
          'zz-new.md',
          '# Quadruped gaits\n\nA trotting quadruped moves diagonal leg pairs together.',
        );
        await store.chunks.upsertDocument({ ...document, domain: 'hardware' }, chunks);
        const { rows } = await store.db.query<{ n: number | string }>(
          'SELECT count(*) AS n FROM build_cache',
        );
        expect(Number(rows[0]?.n)).toBe(0);

        const after = counting(store);
        const retriever = createRetriever(after.store);
        const [top] = await retriever.retrieve('trotting quadruped diagonal legs');
        expect(top?.source).toBe('zz-new.md');
        expect(after.counts).toEqual({ gets: 1, hits: 0, puts: 1 });
      });

      it('an index saved for other content is never loaded', async () => {
        // A stale entry under the right name but another key, as another content would leave it.
        const saved = await store.db.query<{ key: string }>(
          'SELECT key FROM build_cache WHERE name = $1',
          [LEXICAL_INDEX_CACHE],
        );
        const key = saved.rows[0]?.key ?? '';
        expect(key).not.toBe('');
        expect(await store.cache.get(LEXICAL_INDEX_CACHE, `${key}x`)).toBeUndefined();
        await store.cache.put(LEXICAL_INDEX_CACHE, 'other-content', new Uint8Array([1, 2, 3]));
        const after = counting(store);
        await createRetriever(after.store).warm();
        expect(after.counts).toEqual({ gets: 1, hits: 0, puts: 1 });
      });
    },
  );
}
