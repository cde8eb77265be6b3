import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { ingest } from '../retrieval/index.js';
import { prepareDocument } from '../retrieval/ingest/ingest.js';
import { chunksAfterIngestion, openStore, type DocumentWrite, type Store } from '../store/index.js';
import { knowledgeRouter, prepareKnowledge } from './prepare-knowledge.js';
import {
  prebuildKnowledge,
  savePrebuiltKnowledge,
  startSavingPrebuiltKnowledge,
} from './prebuild-knowledge.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-prebuild-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A small book of two files, so that a store of it opens and builds quickly. */
function writeBook(): string {
  const folder = mkdtempSync(join(root, 'book-'));
  writeFileSync(
    join(folder, 'topics.md'),
    '# Topics\n\nA topic is a named bus over which nodes exchange messages.\n\n## Publishers\n\nA publisher sends messages on a topic.\n',
  );
  writeFileSync(
    join(folder, 'services.md'),
    '# Services\n\nA service answers one request with one response.\n\n## Clients\n\nA client calls a service and waits for its response.\n',
  );
  return folder;
}

const configFor = (dataDir: string) =>
  loadConfig({
    env: { COHORT_DATA_DIR: dataDir, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    cwd: tmpdir(),
  });

/** Every value of the store's build cache, by name. */
async function buildCache(store: Store) {
  const { rows } = await store.db.query<{ name: string; key: string; data: Uint8Array }>(
    'SELECT name, key, data FROM build_cache ORDER BY name',
  );
  return rows.map(({ name, key, data }) => ({
    name,
    key,
    data: Buffer.from(data).toString('hex'),
  }));
}

describe('prebuildKnowledge', () => {
  const folder = writeBook();

  it('builds from an ingestion’s chunks what prepareKnowledge builds from the store, under the same keys', async () => {
    // As `cohort ingest` does: built from the chunks written into a new store, saved once committed.
    const config = configFor(join(root, 'prebuilt'));
    const store = await openStore(config);
    try {
      let writing: { documents: readonly DocumentWrite[]; storeWasEmpty: boolean } | undefined;
      await ingest(folder, { store, onWriting: (told) => (writing = told) });
      expect(writing?.storeWasEmpty).toBe(true);
      const chunks = chunksAfterIngestion(
        writing!.documents.flatMap((item) => item.chunks),
        [],
      );
      const prebuilt = await prebuildKnowledge({ config, router: knowledgeRouter(config), chunks });
      expect(prebuilt?.entries.map((entry) => entry.name).sort()).toEqual([
        'lexical-index',
        'trained-router',
      ]);
      expect(await savePrebuiltKnowledge(store, prebuilt!)).toBe(true);

      // As it was done before: built from the store's chunks once the ingestion committed.
      const otherConfig = configFor(join(root, 'prepared'));
      const other = await openStore(otherConfig);
      try {
        await ingest(folder, { store: other });
        await prepareKnowledge({ config: otherConfig, store: other });
        expect(await buildCache(store)).toEqual(await buildCache(other));
      } finally {
        await other.close();
      }
    } finally {
      await store.close();
    }
  }, 60_000);

  it('puts the index in the store as it is built while the ingestion writes, the router once the store is checked: saved once it commits', async () => {
    const config = configFor(join(root, 'saved-as-built'));
    const store = await openStore(config);
    try {
      let prebuilding: ReturnType<typeof prebuildKnowledge> | undefined;
      await ingest(folder, {
        store,
        // As `cohort ingest` does: started while the engine writes, not awaited by the ingestion.
        onWriting: ({ documents }) => {
          prebuilding = prebuildKnowledge({
            config,
            router: knowledgeRouter(config),
            chunks: chunksAfterIngestion(
              documents.flatMap((item) => item.chunks),
              [],
            ),
            saveTo: store.cache,
          });
        },
      });
      const prebuilt = await prebuilding!;
      expect(await savePrebuiltKnowledge(store, prebuilt!)).toBe(true);
      // The ingestion's transaction empties the build cache: the values were saved after it.
      const saved = await buildCache(store);
      expect(saved.map((entry) => entry.name)).toEqual(['lexical-index', 'trained-router']);
      expect(saved).toEqual(
        prebuilt!.entries
          .map(({ name, key, data }) => ({ name, key, data: Buffer.from(data).toString('hex') }))
          .sort((a, b) => (a.name < b.name ? -1 : 1)),
      );
    } finally {
      await store.close();
    }
  }, 60_000);

  it('builds the index from the parsed chunks before the store opens, and trains the router once the writes are sent', async () => {
    // As `cohort ingest` into a new data folder does: started once the files are parsed, while
    // the engine starts; the router waits for the ingestion's writes, the values are put after them.
    const config = configFor(join(root, 'before-open'));
    let open: (store: Store) => void = () => undefined;
    const opening = new Promise<Store>((resolve) => (open = resolve));
    let markSent: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => (markSent = resolve));
    const asked: string[] = [];
    const put: string[] = [];
    let prebuilding: ReturnType<typeof prebuildKnowledge> | undefined;
    const ingesting = ingest(folder, {
      store: opening,
      onParsed: (documents) => {
        prebuilding = prebuildKnowledge({
          config,
          router: knowledgeRouter(config),
          chunks: chunksAfterIngestion(
            documents.flatMap((item) => item.chunks),
            [],
          ),
          saveTo: {
            put: (name, key, data) => {
              asked.push(name);
              return Promise.all([opening, sent]).then(([store]) => {
                put.push(name);
                return store.cache.put(name, key, data);
              });
            },
          },
          afterIndex: sent,
        });
      },
      onWriting: () => markSent(),
    });
    // The index is built while the store is not open yet; the router waits for the writes, and
    // nothing is put in the store before them.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
    while (asked.length === 0) await pause();
    for (let turn = 0; turn < 10; turn++) await pause();
    expect(asked).toEqual(['lexical-index']);
    expect(put).toEqual([]);
    const store = await openStore(config);
    try {
      open(store);
      await ingesting;
      const prebuilt = await prebuilding!;
      // The router, built once the writes were sent, is not put as it is built: its write would
      // hold up in the engine the reads that check the store, which go first.
      expect(put).toEqual(['lexical-index']);
      const order: string[] = [];
      const all = store.chunks.all.bind(store.chunks);
      store.chunks.all = () => {
        order.push('read the chunks');
        return all();
      };
      const putInStore = store.cache.put.bind(store.cache);
      store.cache.put = (name, key, data) => {
        order.push(`put ${name}`);
        return putInStore(name, key, data);
      };
      const saving = await startSavingPrebuiltKnowledge(store, prebuilt!);
      expect(order).toEqual(['read the chunks', 'put trained-router']);
      await saving?.saved;
      const saved = await buildCache(store);
      expect(saved.map((entry) => entry.name)).toEqual(['lexical-index', 'trained-router']);

      // The same values as built from the store once the ingestion committed.
      const otherConfig = configFor(join(root, 'before-open-prepared'));
      const other = await openStore(otherConfig);
      try {
        await ingest(folder, { store: other });
        await prepareKnowledge({ config: otherConfig, store: other });
        expect(saved).toEqual(await buildCache(other));
      } finally {
        await other.close();
      }
    } finally {
      await store.close();
    }
  }, 60_000);

  it('fails alone when the store never opens: the values put meanwhile leave no unhandled rejection', async () => {
    // A second `cohort ingest` into a folder another process holds: the store failed to open, the
    // writes were never sent, and the index's put (waiting on both) was left unhandled: the
    // process printed its clear error, then crashed with the error's stack.
    const config = configFor(join(root, 'never-opens'));
    const held = new Error('The data folder is in use by another process.');
    const opening: Promise<Store> = Promise.reject(held);
    opening.catch(() => undefined);
    const sent = Promise.reject(held);
    sent.catch(() => undefined);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { chunks } = prepareDocument(
        'ros2.md',
        '# ROS 2\n\n## Topics\n\nTopics carry messages between nodes.\n',
      );
      await expect(
        prebuildKnowledge({
          config,
          router: knowledgeRouter(config),
          chunks: chunksAfterIngestion(chunks, []),
          saveTo: {
            put: (name, key, data) =>
              Promise.all([opening, sent]).then(([store]) => store.cache.put(name, key, data)),
          },
          afterIndex: sent,
        }),
      ).rejects.toBe(held);
      // A turn for Node to report what was left unhandled.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('saves nothing in a store that holds other chunks than it was built from', async () => {
    const config = configFor(join(root, 'changed'));
    const store = await openStore(config);
    try {
      let chunks: ReturnType<typeof chunksAfterIngestion> = [];
      await ingest(folder, {
        store,
        onWriting: ({ documents }) => {
          chunks = chunksAfterIngestion(
            documents.flatMap((item) => item.chunks),
            [],
          );
        },
      });
      const prebuilt = await prebuildKnowledge({ config, router: knowledgeRouter(config), chunks });
      // Another folder's document arrives before the values are saved.
      const more = mkdtempSync(join(root, 'more-'));
      writeFileSync(join(more, 'actions.md'), '# Actions\n\nAn action is a long-running goal.\n');
      await ingest(more, { store });
      expect(await savePrebuiltKnowledge(store, prebuilt!)).toBe(false);
      expect(await buildCache(store)).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
