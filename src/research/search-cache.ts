import type { SourceSearch } from './research-dependencies.js';
import type { SourceDocument } from '../schema/index.js';

/** Most searches {@link cachedSearch} remembers; the least recently used is forgotten first. */
export const SEARCH_CACHE_MAX_ENTRIES = 256;

/** Options of {@link cachedSearch}. */
export interface SearchCacheOptions {
  /** How long a search's results are reused, in milliseconds. */
  ttlMs: number;
  maxEntries?: number;
  /** Milliseconds; `Date.now` by default (tests pass a clock). */
  clock?: () => number;
}

/**
 * The research spec's caching layer: a web or paper search whose results are reused for the same
 * query (and result count) for `ttlMs`, so a question asked again, or a resumed run, does not call
 * Tavily, arXiv or Semantic Scholar again. Only results are kept: a failed or timed-out search is
 * tried again next time. Each caller gets its own copies of the documents.
 *
 * @example
 * const search = cachedSearch(arxiv, { ttlMs: 600_000 });
 */
export function cachedSearch(search: SourceSearch, options: SearchCacheOptions): SourceSearch {
  const { ttlMs, maxEntries = SEARCH_CACHE_MAX_ENTRIES, clock = Date.now } = options;
  const entries = new Map<string, { at: number; found: SourceDocument[] }>();
  const copies = (found: SourceDocument[]) => found.map((source) => ({ ...source }));
  return async (query, searchOptions) => {
    const key = `${searchOptions.maxResults}\u0000${query}`;
    const hit = entries.get(key);
    entries.delete(key);
    if (hit && clock() - hit.at < ttlMs) {
      entries.set(key, hit);
      return copies(hit.found);
    }
    const found = await search(query, searchOptions);
    entries.set(key, { at: clock(), found: copies(found) });
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
    }
    return found;
  };
}
