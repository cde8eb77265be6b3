import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CohortConfig } from '../config/index.js';
import type { SourceDocument } from '../schema/index.js';
import { createResearchDependencies } from './create-research-dependencies.js';
import type { SourceSearch } from './research-dependencies.js';
import { cachedSearch } from './search-cache.js';

const atom = readFileSync(
  new URL('../tools/fixtures/arxiv-search.atom.xml', import.meta.url),
  'utf8',
);
const options = () => ({ signal: new AbortController().signal, maxResults: 5 });
const doc = (identifier: string): SourceDocument => ({
  identifier,
  sourceType: 'web',
  title: identifier,
  content: `About ${identifier}.`,
});

/** A search that counts its calls and answers `answer` (an Error is thrown). */
function counting(answer: () => SourceDocument[] | Error) {
  let calls = 0;
  const search: SourceSearch = async (query) => {
    calls += 1;
    const found = answer();
    if (found instanceof Error) throw found;
    return found.map((source) => ({ ...source, title: `${source.title} for ${query}` }));
  };
  return { search, calls: () => calls };
}

describe("cachedSearch (the research spec's caching layer)", () => {
  it("reuses a query's results until they are ttlMs old, as copies", async () => {
    let now = 0;
    const inner = counting(() => [doc('https://a.example')]);
    const search = cachedSearch(inner.search, { ttlMs: 1000, clock: () => now });

    const first = await search('balance', options());
    (first[0] as SourceDocument).content = 'changed by a caller';
    const again = await search('balance', options());
    expect(inner.calls()).toBe(1);
    expect(again[0]?.content).toBe('About https://a.example.');

    await search('walking', options());
    await search('balance', { ...options(), maxResults: 3 });
    expect(inner.calls()).toBe(3);

    now = 1000;
    await search('balance', options());
    expect(inner.calls()).toBe(4);
  });

  it('keeps no failure, and forgets the least recently used past maxEntries', async () => {
    let fail = true;
    const inner = counting(() => (fail ? new Error('HTTP 503') : [doc('https://a.example')]));
    const search = cachedSearch(inner.search, { ttlMs: 60_000, maxEntries: 2 });
    await expect(search('a', options())).rejects.toThrow('HTTP 503');
    fail = false;
    await search('a', options());
    expect(inner.calls()).toBe(2);

    await search('b', options());
    await search('a', options()); // a is now the most recently used
    await search('c', options()); // forgets b
    await search('a', options());
    expect(inner.calls()).toBe(4);
    await search('b', options());
    expect(inner.calls()).toBe(5);
  });
});

describe('createResearchDependencies search cache', () => {
  const arxivConfig = (research: Record<string, unknown> = {}) =>
    CohortConfig.parse({
      tools: { arxivBaseUrl: 'http://arxiv.test/api/query', allowPrivateNetwork: true },
      research,
    });
  const arxivFetch = () => {
    let calls = 0;
    const fetch = (async () => {
      calls += 1;
      return new Response(atom, { headers: { 'content-type': 'application/atom+xml' } });
    }) as typeof globalThis.fetch;
    return { fetch, calls: () => calls };
  };

  it('asks arXiv once for a paper search repeated within research.searchCacheSeconds', async () => {
    // Every repeated question called arXiv (and Tavily, Semantic Scholar) again.
    const served = arxivFetch();
    const { paperSearches } = createResearchDependencies(arxivConfig(), { fetch: served.fetch });
    const arxiv = paperSearches?.[0];
    expect(arxiv?.name).toBe('arxiv');
    const first = await arxiv?.search('humanoid balance', options());
    const second = await arxiv?.search('humanoid balance', options());
    expect(served.calls()).toBe(1);
    expect(second).toEqual(first);
    expect(first?.length).toBeGreaterThan(0);
  });

  it('searches every time with research.searchCacheSeconds 0', async () => {
    const served = arxivFetch();
    const { paperSearches } = createResearchDependencies(arxivConfig({ searchCacheSeconds: 0 }), {
      fetch: served.fetch,
    });
    await paperSearches?.[0]?.search('humanoid balance', options());
    await paperSearches?.[0]?.search('humanoid balance', options());
    expect(served.calls()).toBe(2);
  });
});
