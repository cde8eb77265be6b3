import { createHash } from 'node:crypto';
import type { BookKnowledge, ChunkRecord } from '../schema/index.js';
import { chunkContentHash, type Store } from '../store/index.js';
import { nextTurn } from '../event-loop/index.js';
import type { ConfidenceCalibration } from './confidence-calibration.js';
import type { ClassifierModel } from './intent-classifier.js';
import { isAcknowledgments, isLicencePage } from '../retrieval/index.js';
import { gluedNames, stemWord, textWords } from './query-text.js';
import {
  decodeTrainedRouter,
  encodeTrainedRouter,
  TRAINED_ROUTER_CACHE,
} from './trained-router-cache.js';

/** The parts of a chunk the router learns from. */
/** What knowledge reads of a chunk; its `source` names a licence page (see `licencePage`). */
export type KnowledgeChunk = Pick<ChunkRecord, 'text' | 'title' | 'headingPath' | 'domain'> &
  Partial<Pick<ChunkRecord, 'source'>>;

/**
 * Stems in more than this share of the chunks are everywhere in the book ("robot" in a robotics
 * book): their passages are not kept, and they meet every other word.
 */
export const MAX_PASSAGE_SHARE = 0.25;

/** Words longer than this are not words (hashes, URLs run together) and are not learnt. */
const MAX_WORD_LENGTH = 30;

/** What {@link learnBookKnowledge} counts of a stem. */
interface StemTally {
  /** Chunks holding it, per domain (in `domains` order). */
  row: number[];
  /** Ordinals of the chunks holding it. */
  passages: number[];
  /** The ordinal of the last chunk it was counted in. */
  last: number;
}

/**
 * Learns from chunks which terms the book covers and in which domain's chunks each one lives:
 * every stem of a chunk's text, title and headings counts once per chunk, by the chunk's domain.
 *
 * @example
 * const knowledge = learnBookKnowledge(await store.chunks.all());
 * knowledge.terms['topic']; // chunks per domain, in knowledge.domains order
 */
export function learnBookKnowledge(
  chunks: Iterable<KnowledgeChunk>,
  version?: string,
): BookKnowledge {
  const domains: string[] = [];
  const position = new Map<string, number>();
  const counts: number[] = [];
  // One record per stem and per word, found with one lookup a word: a stem's chunks per domain and
  // its passages, and the chunk it was last counted in (it counts once per chunk).
  const stems = new Map<string, StemTally>();
  const words = new Map<string, { count: number; stem: StemTally }>();
  const tallyOf = (stem: string) => {
    let tally = stems.get(stem);
    if (!tally) stems.set(stem, (tally = { row: domains.map(() => 0), passages: [], last: -1 }));
    return tally;
  };
  let ordinal = -1;
  let licencePage = false;
  let acknowledgments = false;
  for (const chunk of chunks) {
    ordinal += 1;
    acknowledgments ||= isAcknowledgments(chunk);
    licencePage ||=
      chunk.source !== undefined && isLicencePage({ source: chunk.source, title: chunk.title });
    let d = position.get(chunk.domain);
    if (d === undefined) {
      d = domains.length;
      position.set(chunk.domain, d);
      domains.push(chunk.domain);
      counts.push(0);
      for (const tally of stems.values()) tally.row.push(0);
    }
    counts[d] = (counts[d] ?? 0) + 1;
    const text = [chunk.title, ...chunk.headingPath, chunk.text].join('\n');
    const note = (tally: StemTally) => {
      if (tally.last === ordinal) return;
      tally.last = ordinal;
      tally.passages.push(ordinal);
      tally.row[d] = (tally.row[d] ?? 0) + 1;
    };
    // Read, not kept: the words as `normalizeWords` gives them, without its copy of the list.
    for (const word of textWords(text).words) {
      if (word.length > MAX_WORD_LENGTH) continue;
      let seen = words.get(word);
      if (seen === undefined) words.set(word, (seen = { count: 0, stem: tallyOf(stemWord(word)) }));
      seen.count += 1;
      note(seen.stem);
    }
    // Model names ("A100", "Go2") are terms as written: no stem has both letters and digits.
    if (/\d/.test(text))
      for (const name of gluedNames(text.toLowerCase()))
        if (name.length <= MAX_WORD_LENGTH) note(tallyOf(name));
  }
  const limit = MAX_PASSAGE_SHARE * (ordinal + 1);
  const tallies = [...stems];
  return {
    domains,
    chunks: counts,
    terms: Object.fromEntries(tallies.map(([stem, { row }]) => [stem, row])),
    words: Object.fromEntries([...words].map(([word, { count }]) => [word, count])),
    passages: Object.fromEntries(
      tallies
        .filter(([, { passages }]) => passages.length <= limit)
        .map(([stem, { passages }]) => [stem, passages]),
    ),
    ...(licencePage ? { licencePage } : {}),
    ...(acknowledgments ? { acknowledgments } : {}),
    ...(version !== undefined ? { version } : {}),
  };
}

/**
 * Reads the store's chunks and learns from them (see {@link learnBookKnowledge}); the result
 * carries the store's chunk version so a caller can tell when to learn again.
 *
 * @example
 * router.learn(await loadBookKnowledge(store));
 */
export async function loadBookKnowledge(store: Pick<Store, 'chunks'>): Promise<BookKnowledge> {
  const version = await store.chunks.version();
  return learnBookKnowledge(await store.chunks.all(), version);
}

/** How long a store version check is trusted before the store is asked again. */
export const KNOWLEDGE_CHECK_MS = 1000;

/** The router a {@link createKnowledgeRefresh} keeps up to date. */
export interface LearningRouter {
  learn(
    knowledge: BookKnowledge,
    saved?: { calibration: ConfidenceCalibration | null; classifier?: ClassifierModel },
  ): void;
  readonly knowledge: BookKnowledge | undefined;
  /** Fits the calibration when it is read (see `Router.calibration`). */
  readonly calibration?: ConfidenceCalibration | undefined;
  /** Trains the intent classifier when it is read (see `Router.classifier`). */
  readonly classifier?: ClassifierModel;
}

/** Options of {@link createKnowledgeRefresh}. */
export interface KnowledgeRefreshOptions {
  checkMs?: number;
  now?: () => number;
  /**
   * `trainedRouterFingerprint(agents, options)` of the router: with it, what the router learns
   * (knowledge and calibration) is saved in the store's build cache, and a later process over the
   * same chunks, agents, options and code loads it instead of reading every chunk and fitting again.
   */
  fingerprint?: string;
}

/**
 * What {@link createKnowledgeRefresh} reads and saves: a store's chunks and build cache, or the
 * chunks a store will hold once an ingestion commits (see `prebuildKnowledge`).
 */
export interface KnowledgeSource {
  chunks: Pick<Store['chunks'], 'all' | 'version' | 'contentHash'>;
  cache?: Pick<Store['cache'], 'get' | 'put' | 'saves'>;
}

/**
 * The build-cache key of the router trained on chunks with `contentHash` (a chunk content hash)
 * by a router of `fingerprint` (`trainedRouterFingerprint`).
 *
 * @example
 * const key = trainedRouterKey(await store.chunks.contentHash(), fingerprint);
 */
export function trainedRouterKey(contentHash: string, fingerprint: string): string {
  return createHash('sha1').update(contentHash).update(fingerprint).digest('hex');
}

/**
 * Keeps a router's book knowledge in step with the store: each call checks the store's chunk
 * version (at most once per `checkMs`) and, when chunks were added, replaced or removed since the
 * router last learnt (by this process or another), learns again, or loads what it learnt before
 * from the store's build cache (see `fingerprint`). Call it at start-up and before routing;
 * concurrent calls share one load.
 *
 * @example
 * const refresh = createKnowledgeRefresh(router, store);
 * await refresh(); // the router now knows what the book covers
 */
export function createKnowledgeRefresh(
  router: LearningRouter,
  store: KnowledgeSource,
  options: KnowledgeRefreshOptions = {},
): () => Promise<void> {
  const checkMs = options.checkMs ?? KNOWLEDGE_CHECK_MS;
  const now = options.now ?? Date.now;
  const { fingerprint } = options;
  const cache = fingerprint !== undefined ? store.cache : undefined;
  const keyOf = (contentHash: string) => trainedRouterKey(contentHash, fingerprint ?? '');
  let checkedAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | undefined;
  // The cache only saves work: when it cannot be read or written, the router learns as before.
  const loadSaved = async (version: string): Promise<boolean> => {
    if (!cache || cache.saves === false) return false;
    const contentHash = await store.chunks.contentHash().catch(() => undefined);
    if (contentHash === undefined) return false;
    const saved = await cache.get(TRAINED_ROUTER_CACHE, keyOf(contentHash)).catch(() => undefined);
    const trained = saved && decodeTrainedRouter(saved);
    if (!trained) return false;
    router.learn(
      { ...trained.knowledge, version },
      {
        calibration: trained.calibration,
        ...(trained.classifier ? { classifier: trained.classifier } : {}),
      },
    );
    return true;
  };
  const refresh = async () => {
    const version = await store.chunks.version();
    checkedAt = now();
    if (router.knowledge?.version === version) return;
    if (await loadSaved(version)) return;
    const chunks = await store.chunks.all();
    const knowledge = learnBookKnowledge(chunks, version);
    router.learn(knowledge);
    if (!cache) return;
    // The event loop runs between the two halves of the build (0.3 s, then 0.5 s at the ROS 2
    // docs): what waits on it meanwhile (a server's requests, the engine's answers to an ingestion,
    // which then commits while the router trains) is not held for the whole build.
    await nextTurn();
    // Reading the calibration fits it now, and the classifier trains it (both are needed for the
    // next route anyway).
    const calibration = router.calibration ?? null;
    // A cache that keeps nothing (`memory://`) is not given the trained router: encoding it cost
    // memory (its JSON, and the classifier's model as a map) for nothing.
    if (cache.saves === false) return;
    const trained = encodeTrainedRouter({
      knowledge,
      calibration,
      ...(router.classifier ? { classifier: router.classifier } : {}),
    });
    await cache.put(TRAINED_ROUTER_CACHE, keyOf(chunkContentHash(chunks)), trained).catch(() => {
      // Not saved: the next process learns again.
    });
  };
  return () => {
    if (pending) return pending;
    if (router.knowledge && now() - checkedAt < checkMs) return Promise.resolve();
    pending = refresh().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
