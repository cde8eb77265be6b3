import type { CohortConfig } from '../config/index.js';
import { nextTurn } from '../event-loop/index.js';
import { createRetriever, embeddingFor, type RetrieverStore } from '../retrieval/index.js';
import { createKnowledgeRefresh, type KnowledgeSource } from '../routing/index.js';
import type { ChunkRecord } from '../schema/index.js';
import { chunkContentHash, type Store } from '../store/index.js';
import type { KnowledgeRouter } from './prepare-knowledge.js';

/** One value {@link prebuildKnowledge} built, as the store's build cache keeps it. */
export interface PrebuiltEntry {
  name: string;
  key: string;
  data: Uint8Array;
  /** Settles once it is saved (or failed to be), when it was put in `saveTo` as it was built. */
  put?: Promise<void>;
}

/** What {@link prebuildKnowledge} built, and the content hash of the chunks it built it from. */
export interface PrebuiltKnowledge {
  contentHash: string;
  entries: PrebuiltEntry[];
}

/**
 * The chunks' change counter while nothing is stored yet: the router is told it with what it
 * learnt, which only this process's router sees (the saved value leaves it out).
 */
const PREBUILT_VERSION = 'prebuilt';

/**
 * Builds what {@link prepareKnowledge} would save for a store holding exactly `chunks` (the trained
 * router and the lexical index, under the keys a later process computes from that store), before
 * the store holds them: `cohort ingest` builds them from a new store's chunks while the engine
 * writes and commits them, putting each in the store as it is built (`saveTo`), then checks with
 * {@link savePrebuiltKnowledge} that the store holds those chunks. The same code
 * builds them as for a store (the knowledge refresh and the retriever), over the chunks in hand
 * and a build cache that holds nothing yet (an ingestion that changes chunks empties it).
 * Undefined when the configuration embeds the chunks: `prepareKnowledge` does that after the
 * ingestion, as before.
 *
 * @example
 * const prebuilt = await prebuildKnowledge({ config, router: knowledgeRouter(config), chunks });
 */
export async function prebuildKnowledge(options: {
  config: CohortConfig;
  router: KnowledgeRouter;
  /** The chunks in store order, as the engine gives them back (see `chunksAfterIngestion`). */
  chunks: readonly ChunkRecord[];
  /**
   * The store's build cache, to put each value built before `afterIndex` in as soon as it is
   * built, without waiting for it: PGlite runs a statement that arrives during a transaction once
   * the transaction has ended, so it is saved after the ingestion commits (its transaction empties
   * the build cache), while this thread builds the router. Keyed by the chunks' content hash, a
   * value saved for chunks the store turns out not to hold is never read, and is replaced when
   * `prepareKnowledge` builds from the store. The router, built last, is not put here: its write
   * (0.16 s of the engine at the ROS 2 docs) would hold up the reads that check the store, which
   * {@link startSavingPrebuiltKnowledge} makes first, and puts it after them.
   */
  saveTo?: Pick<Store['cache'], 'put'>;
  /**
   * Waited for between the index and the router: `cohort ingest`, building before the engine is
   * open, lets the ingestion send its writes there (this thread does it) before the router's
   * training holds this thread, so the engine writes while the router trains.
   */
  afterIndex?: Promise<unknown>;
}): Promise<PrebuiltKnowledge | undefined> {
  const { config, chunks } = options;
  if (embeddingFor(config) || chunks.length === 0) return undefined;
  const contentHash = chunkContentHash(chunks);
  const entries: PrebuiltEntry[] = [];
  // Off once the writes are sent (`afterIndex`): what is built then is put after the check.
  let saveTo = options.saveTo;
  const cache: Pick<Store['cache'], 'get' | 'put' | 'saves'> = {
    saves: true,
    get: () => Promise.resolve(undefined),
    put: (name, key, data) => {
      const put = saveTo?.put(name, key, data);
      // Awaited when it is saved; handled now, as the build may fail first (the writes never
      // sent, in a store that never opened) and never reach that await.
      put?.catch(() => undefined);
      entries.push({ name, key, data, ...(put ? { put } : {}) });
      return Promise.resolve();
    },
  };
  const pending: KnowledgeSource & RetrieverStore = {
    chunks: {
      // Copies, as a store's reads are: a builder owns what it is given.
      all: () => Promise.resolve(chunks.map((chunk) => ({ ...chunk }))),
      version: () => Promise.resolve(PREBUILT_VERSION),
      contentHash: () => Promise.resolve(contentHash),
    },
    cache,
  };
  await nextTurn();
  const { router, fingerprint } = options.router;
  // As `prepareKnowledge` builds them, with the retriever `openKnowledgeBase` makes. The index
  // first: the larger value (3.2 MB against the router's 1.8 at the ROS 2 docs) is saved while
  // the router trains, and only the smaller one once this thread is done.
  await createRetriever(pending, {
    minScore: config.retrieval.minScore,
    limit: config.retrieval.limit,
  }).warm();
  await (options.afterIndex ?? nextTurn());
  saveTo = undefined;
  await createKnowledgeRefresh(router, pending, { fingerprint })();
  return { contentHash, entries };
}

/**
 * Checks that `store` holds the chunks {@link prebuildKnowledge} built from (their content hash
 * is theirs) and, when it does, puts in it what was not put as it was built: resolves once the
 * store is checked and those writes are sent, with `saved`, which settles once every value is
 * saved (or one failed to be); undefined when the store holds other chunks (then nothing is
 * saved, or what was is never read). The chunks are read as `prepareKnowledge` reads them: a data
 * folder's start-cached store takes them from the ingestion it wrote, and keeps them for its
 * start cache, which its `close` can write while the engine saves the values.
 *
 * @example
 * const saving = await startSavingPrebuiltKnowledge(store, prebuilt);
 * if (saving) await saving.saved;
 */
export async function startSavingPrebuiltKnowledge(
  store: Pick<Store, 'chunks' | 'cache'>,
  prebuilt: PrebuiltKnowledge,
): Promise<{ saved: Promise<void> } | undefined> {
  if (chunkContentHash(await store.chunks.all()) !== prebuilt.contentHash) return undefined;
  const saved = Promise.all(
    prebuilt.entries.map(({ name, key, data, put }) => put ?? store.cache.put(name, key, data)),
  ).then(() => undefined);
  // Awaited by the caller, maybe only once it has closed the store.
  saved.catch(() => undefined);
  return { saved };
}

/**
 * Saves in `store` what {@link prebuildKnowledge} built, when the store holds the chunks it was
 * built from, and waits until it is saved (see {@link startSavingPrebuiltKnowledge}); false when
 * the store holds other chunks.
 *
 * @example
 * if (!(await savePrebuiltKnowledge(store, prebuilt))) await prepareKnowledge({ config, store });
 */
export async function savePrebuiltKnowledge(
  store: Pick<Store, 'chunks' | 'cache'>,
  prebuilt: PrebuiltKnowledge,
): Promise<boolean> {
  const saving = await startSavingPrebuiltKnowledge(store, prebuilt);
  if (!saving) return false;
  await saving.saved;
  return true;
}
