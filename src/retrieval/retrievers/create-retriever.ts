import { CohortError } from '../../errors/index.js';
import type { ChunkRecord, RetrievedChunk } from '../../schema/index.js';
import { createHash } from 'node:crypto';
import { chunkContentHash, sourceFingerprint, type Store } from '../../store/index.js';
import { decodeLexicalIndex, encodeLexicalIndex } from '../rank/lexical-index-bytes.js';
import {
  createRanker,
  lexicalIndexSettings,
  type RankedChunk,
  type Ranker,
  type RankerOptions,
} from '../rank/ranker.js';
import { frontMatterChunks } from '../rank/front-matter.js';
import { taughtAsCourse, workNameOf } from '../rank/work-names.js';
import type { RetrieveOptions, Retriever } from './retriever.js';
import type { RepairedQuery } from '../rank/query-vocabulary.js';

/** Below this relevance a passage counts as not relevant; the same default as `retrieval.minScore`. */
export const DEFAULT_MIN_SCORE = 0.1;
/** Passages returned when the caller does not say. */
export const DEFAULT_LIMIT = 5;

/**
 * How much a passage of the asked domain is weighed up against the rest of the book (a ratio of
 * ranking scores). Routing decides the domain from the question alone; when the book's best answer
 * lives in another domain's chapter (a glossary question answered in a module chapter), that
 * chapter must still be found. Measured with `cohort eval answers` over the textbook: a hard filter
 * cited a gold section for 0.61 of the tuning questions, no filter 0.69, this preference 0.69 with
 * citation [1] right more often (0.58 against 0.56). Applied passage by passage (see
 * `preferDomain`): `answers-tune-fifth.jsonl` 0.818 → 0.848, as with the router off.
 */
export const DOMAIN_PREFERENCE = 1.1;

/** How long a store version check is trusted before the store is asked again. */
export const DEFAULT_VERSION_CHECK_MS = 1000;

/** Options of {@link createRetriever}. */
export interface RetrieverOptions extends RankerOptions {
  /** Domain results below this score fall back to the whole book (pass `config.retrieval.minScore`). */
  minScore?: number;
  /** Default number of passages (pass `config.retrieval.limit`). */
  limit?: number;
  /**
   * Milliseconds a `store.chunks.version()` answer is reused, so a burst of queries costs one
   * database round trip (default {@link DEFAULT_VERSION_CHECK_MS}; 0 checks on every query).
   * Chunks ingested by another process show up after at most this long; call `invalidate()` after
   * an ingest in this process to see them at once.
   */
  versionCheckMs?: number;
  /** Clock in milliseconds, for tests (default `Date.now`). */
  now?: () => number;
}

/** A retriever that also says how it ranks and can be asked to rebuild its index. */
export interface IndexedRetriever extends Retriever {
  readQuery(query: string): Promise<RepairedQuery>;
  readQueryNow(query: string): RepairedQuery;
  /** Builds the index now (otherwise it is built on first use); resolves to its chunk count. */
  warm(): Promise<number>;
  /** Forgets the cached store version, so the next query checks for new chunks. */
  invalidate(): void;
  /** What the corpus calls itself (see `Retriever.workName`); undefined until the index is built. */
  workName(): string | undefined;
  /**
   * Whether the work is taught as a course (see `Retriever.workIsCourse`), once the index is built;
   * undefined when the corpus has no opening page.
   */
  workIsCourse(): boolean | undefined;
  /** The next part of a passage's section (see `Retriever.nextPart`), once the index is built. */
  nextPart(chunk: RetrievedChunk): RetrievedChunk | undefined;
}

const SECTION_SEPARATOR = ' > ';

/** The query as `ranker` reads it, or as typed when the ranker does not repair queries. */
const readWith = (ranker: Ranker, query: string): RepairedQuery =>
  ranker.readQuery?.(query) ?? { text: query, repairs: [] };

function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw new CohortError('aborted', 'Retrieval was cancelled.');
}

/**
 * The heading path of a retrieved passage, document title first: from its metadata, as
 * {@link toRetrievedChunk} keeps it, else (a passage from another retriever) its title and its
 * section label read back.
 *
 * @example
 * headingPathOf(passage); // ['Chapter 2', 'Topics', 'Publishers']
 */
export function headingPathOf(chunk: RetrievedChunk): string[] {
  const path = chunk.metadata.headingPath;
  if (Array.isArray(path) && path.every((heading) => typeof heading === 'string'))
    return path as string[];
  return [chunk.title, ...(chunk.section ? chunk.section.split(SECTION_SEPARATOR) : [])];
}

/**
 * A stored chunk as a retrieval result with a 0..1 `score`: `section` is its heading path below
 * the title, and `metadata.domainFallback` marks a whole-book fallback.
 */
export function toRetrievedChunk(
  chunk: ChunkRecord,
  score: number,
  fallback: boolean,
): RetrievedChunk {
  const metadata: Record<string, unknown> = {
    ...chunk.metadata,
    headingPath: chunk.headingPath,
    // Where the passage stands in its document: sibling sections are quoted in the book's order.
    ord: chunk.ord,
  };
  if (fallback) metadata.domainFallback = true;
  return {
    id: chunk.id,
    text: chunk.text,
    source: chunk.source,
    title: chunk.title,
    section:
      chunk.headingPath.slice(1).join(SECTION_SEPARATOR) || chunk.headingPath[0] || chunk.title,
    score,
    domain: chunk.domain,
    metadata,
  };
}

const toRetrieved = (hit: RankedChunk, fallback: boolean) =>
  toRetrievedChunk(hit.chunk, hit.score, fallback);

// Per ranker, so a rebuilt index (new chunks) gets new masks and the old ones are collected with it.
const domainMasks = new WeakMap<Ranker, Map<string, Uint8Array>>();
const MAX_CACHED_DOMAINS = 32;

// Per ranker, as the masks: new chunks may open with another name.
const workNames = new WeakMap<Ranker, { name: string | undefined; course: boolean | undefined }>();

/**
 * What the ranker's corpus calls itself on its opening page (see `workNameOf`), and whether that
 * page says it is taught as a course (see `taughtAsCourse`), read once.
 */
function rankerWork(ranker: Ranker): { name: string | undefined; course: boolean | undefined } {
  let known = workNames.get(ranker);
  if (!known) {
    const opening = Array.from(frontMatterChunks(ranker.chunks), (i) => ranker.chunks[i]!);
    // No opening page: nothing says what the work is.
    const course = opening.length > 0 ? taughtAsCourse(opening) : undefined;
    workNames.set(ranker, (known = { name: workNameOf(opening), course }));
  }
  return known;
}

// Per ranker: each chunk's place by its document and order, read on the first ask.
const chunkPlaces = new WeakMap<Ranker, Map<string, number>>();

/**
 * The chunk after `chunk` in its document when it is the next part of the same section (see
 * `Retriever.nextPart`), scored as `chunk` is.
 */
function rankerNextPart(ranker: Ranker, chunk: RetrievedChunk): RetrievedChunk | undefined {
  const { part, parts, ord } = chunk.metadata;
  if (typeof part !== 'number' || typeof parts !== 'number' || part >= parts) return undefined;
  if (typeof ord !== 'number') return undefined;
  let places = chunkPlaces.get(ranker);
  if (!places) {
    places = new Map(ranker.chunks.map((c, i) => [`${c.source}\u0000${c.ord}`, i]));
    chunkPlaces.set(ranker, places);
  }
  const next = ranker.chunks[places.get(`${chunk.source}\u0000${ord + 1}`) ?? -1];
  if (!next || next.headingPath.join('\u0001') !== headingPathOf(chunk).join('\u0001'))
    return undefined;
  return toRetrievedChunk(next, chunk.score, chunk.metadata.domainFallback === true);
}

/** Which of the ranker's chunks are in `domain` (1) or not (0), built once per ranker and domain. */
function domainMask(ranker: Ranker, domain: string): Uint8Array {
  let masks = domainMasks.get(ranker);
  if (!masks) domainMasks.set(ranker, (masks = new Map()));
  let mask = masks.get(domain);
  if (!mask) {
    mask = Uint8Array.from(ranker.chunks, (chunk) => (chunk.domain === domain ? 1 : 0));
    // Domains are a short enumeration; the bound keeps an unexpected caller from growing the cache.
    if (masks.size < MAX_CACHED_DOMAINS) masks.set(domain, mask);
  }
  return mask;
}

/** Retrieval over a ranker, with the domain filter and its whole-book fallback (spec R8). */
function retrieveWith(
  ranker: Ranker,
  query: string,
  options: RetrieveOptions,
  defaults: Required<Pick<RetrieverOptions, 'minScore' | 'limit'>>,
) {
  const limit = options.limit ?? defaults.limit;
  if (!options.domain) return ranker.rank(query, { limit }).map((hit) => toRetrieved(hit, false));
  const inDomain = ranker.rank(query, { limit, mask: domainMask(ranker, options.domain) });
  const best = inDomain[0]?.score ?? 0;
  const whole = ranker.rank(query, { limit });
  if (best < defaults.minScore) return whole.map((hit) => toRetrieved(hit, true));
  return preferDomain(options.domain, inDomain, whole, limit).map((hit) => toRetrieved(hit, false));
}

/**
 * The domain as a preference, passage by passage: the asked domain's best passages and the whole
 * book's, in one list in ranking order with the domain's passages weighed up by
 * {@link DOMAIN_PREFERENCE}. A passage elsewhere takes a place only from a domain passage it
 * clearly beats, or one the domain cannot fill: a domain with one relevant section no longer hides
 * the book's other answers behind four unrelated ones of its own.
 */
function preferDomain(
  domain: string,
  inDomain: readonly RankedChunk[],
  whole: readonly RankedChunk[],
  limit: number,
): RankedChunk[] {
  const weighed = new Map<number, { hit: RankedChunk; key: number }>();
  for (const hit of [...inDomain, ...whole]) {
    if (weighed.has(hit.doc)) continue;
    weighed.set(hit.doc, {
      hit,
      key: hit.chunk.domain === domain ? hit.raw * DOMAIN_PREFERENCE : hit.raw,
    });
  }
  return [...weighed.values()]
    .sort((a, b) => b.key - a.key)
    .slice(0, limit)
    .map(({ hit }) => hit);
}

function validateQuery(query: string) {
  if (typeof query !== 'string' || query.trim() === '') {
    throw new CohortError(
      'invalid_input',
      'The search query is empty: ask a question with at least one word.',
      { field: 'query' },
    );
  }
}

/**
 * A retriever over a fixed list of chunks, with no store: for benchmarks, tests and evaluation.
 *
 * @example
 * const retriever = createRetrieverFromChunks(chunks, { techniques: 'bm25' });
 * const passages = await retriever.retrieve('What is a topic?');
 */
export function createRetrieverFromChunks(
  chunks: readonly ChunkRecord[],
  options: RetrieverOptions & {
    /** Builds the ranker instead of `createRanker` (the experiments of `scripts/experiments/`). */
    ranker?: (chunks: readonly ChunkRecord[]) => Ranker;
  } = {},
): IndexedRetriever {
  let ranker: Ranker | undefined;
  const defaults = {
    minScore: options.minScore ?? DEFAULT_MIN_SCORE,
    limit: options.limit ?? DEFAULT_LIMIT,
  };
  const get = () => (ranker ??= (options.ranker ?? ((all) => createRanker(all, options)))(chunks));
  return {
    async retrieve(query, retrieveOptions = {}) {
      throwIfAborted(retrieveOptions.signal);
      validateQuery(query);
      return retrieveWith(get(), query, retrieveOptions, defaults);
    },
    async readQuery(query) {
      return readWith(get(), query);
    },
    readQueryNow: (query) => readWith(get(), query),
    workName: () => rankerWork(get()).name,
    workIsCourse: () => rankerWork(get()).course,
    nextPart: (chunk) => rankerNextPart(get(), chunk),
    async warm() {
      return get().chunks.length;
    },
    invalidate() {
      // A fixed chunk list never changes: nothing to forget.
    },
  };
}

/**
 * What {@link createRetriever} reads and saves: a store's chunks and build cache, or the chunks a
 * store will hold once an ingestion commits (see `prebuildKnowledge`).
 */
export interface RetrieverStore {
  chunks: Pick<Store['chunks'], 'all' | 'version'>;
  cache?: Pick<Store['cache'], 'get' | 'put' | 'saves'>;
}

/** Name of the saved lexical index in the store's build cache. */
export const LEXICAL_INDEX_CACHE = 'lexical-index';

/**
 * The build-cache key of the lexical index over chunks with `contentHash` (a chunk content hash),
 * built with `options`' index settings by this version of the ranking code.
 *
 * @example
 * const key = lexicalIndexKey(await store.chunks.contentHash(), { minScore: 0.2 });
 */
export function lexicalIndexKey(contentHash: string, options: RankerOptions): string {
  return createHash('sha1')
    .update(contentHash)
    .update(JSON.stringify(lexicalIndexSettings(options)))
    .update(sourceFingerprint(new URL('../rank/', import.meta.url)))
    .digest('hex');
}

/**
 * The ranker over `chunks` (read from `store` just now), with its lexical index loaded from the
 * store's build cache when one was saved from the same chunks, index settings and ranking code,
 * and built (then saved) otherwise. Without a cache the index is built.
 */
async function loadOrBuildRanker(
  store: Pick<RetrieverStore, 'cache'>,
  chunks: readonly ChunkRecord[],
  options: RankerOptions,
): Promise<Ranker> {
  // A cache that keeps nothing (`memory://`) is not asked: nothing to load, and encoding the
  // index to save it is work and memory for nothing.
  if (!store.cache || store.cache.saves === false || chunks.length === 0)
    return createRanker(chunks, options);
  const key = lexicalIndexKey(chunkContentHash(chunks), options);
  // The cache only saves work: when it cannot be read or written, the index is built as before.
  const saved = await store.cache.get(LEXICAL_INDEX_CACHE, key).catch(() => undefined);
  const data = saved && decodeLexicalIndex(saved, chunks.length);
  if (data) return createRanker(chunks, options, data);
  const ranker = createRanker(chunks, options);
  if (ranker.toSave) {
    await store.cache
      .put(LEXICAL_INDEX_CACHE, key, encodeLexicalIndex(ranker.toSave()))
      .catch(() => undefined);
  }
  return ranker;
}

/**
 * A retriever over the store's chunks. The index is loaded from the store's build cache (or
 * built and saved there) on first use, and again when the store's chunks change (`store.chunks.version()`, asked at most once per `versionCheckMs`); scores
 * are 0..1 and comparable across queries.
 * With a `domain`, only that domain's chunks are searched unless none reaches `minScore`, in which
 * case the whole book is searched and each passage carries `metadata.domainFallback = true`.
 *
 * @example
 * const retriever = createRetriever(store, { minScore: config.retrieval.minScore });
 * const passages = await retriever.retrieve('How much does a Jetson cost?', { domain: 'hardware' });
 */
export function createRetriever(
  store: RetrieverStore,
  options: RetrieverOptions = {},
): IndexedRetriever {
  const defaults = {
    minScore: options.minScore ?? DEFAULT_MIN_SCORE,
    limit: options.limit ?? DEFAULT_LIMIT,
  };
  const versionCheckMs = options.versionCheckMs ?? DEFAULT_VERSION_CHECK_MS;
  const now = options.now ?? Date.now;
  let built: { version: string; ranker: Ranker } | undefined;
  let building: Promise<Ranker> | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  // Queries that arrive while the version is being asked share that answer: a burst of queries
  // when the check is due costs one round trip, not one each.
  // `invalidate()` starts a new generation: a check begun before it is neither joined nor trusted.
  let checking: Promise<string> | undefined;
  let generation = 0;
  const checkVersion = () => {
    if (checking) return checking;
    const started = generation;
    const check = store.chunks
      .version()
      .then((version) => {
        if (generation === started) checkedAt = now();
        return version;
      })
      .finally(() => {
        if (checking === check) checking = undefined;
      });
    checking = check;
    return check;
  };

  const current = async (): Promise<Ranker> => {
    if (built && versionCheckMs > 0 && now() - checkedAt < versionCheckMs) return built.ranker;
    let version: string;
    try {
      version = await checkVersion();
    } catch (cause) {
      throw new CohortError(
        'retrieval_unavailable',
        `The knowledge base cannot be read: ${String(cause)}`,
        { cause },
      );
    }
    if (built?.version === version) return built.ranker;
    // Concurrent first queries share one build instead of each building the index.
    building ??= (async () => {
      try {
        const chunks = await store.chunks.all();
        const ranker = await loadOrBuildRanker(store, chunks, options);
        built = { version, ranker };
        return ranker;
      } finally {
        building = undefined;
      }
    })();
    return building;
  };

  return {
    async retrieve(query, retrieveOptions = {}) {
      throwIfAborted(retrieveOptions.signal);
      validateQuery(query);
      const ranker = await current();
      throwIfAborted(retrieveOptions.signal);
      return retrieveWith(ranker, query, retrieveOptions, defaults);
    },
    async readQuery(query) {
      return readWith(await current(), query);
    },
    readQueryNow: (query) => (built ? readWith(built.ranker, query) : { text: query, repairs: [] }),
    // Known once the index is built: an answer asks after its retrieval has built it.
    workName: () => (built ? rankerWork(built.ranker).name : undefined),
    workIsCourse: () => (built ? rankerWork(built.ranker).course : undefined),
    nextPart: (chunk) => (built ? rankerNextPart(built.ranker, chunk) : undefined),
    async warm() {
      return (await current()).chunks.length;
    },
    invalidate() {
      checkedAt = Number.NEGATIVE_INFINITY;
      checking = undefined;
      generation++;
    },
  };
}
