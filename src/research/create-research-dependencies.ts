import { hasModel, type CohortConfig } from '../config/index.js';
import { createModelProvider } from '../models/index.js';
import { createRetriever, type Retriever } from '../retrieval/index.js';
import type { Store } from '../store/index.js';
import type { Logger } from '../telemetry/index.js';
import { arxivSearch } from '../tools/arxiv.js';
import { fetchReadable, tavilySearch, unwrapOutcome } from '../tools/index.js';
import { runCode } from '../sandbox/index.js';
import { semanticScholarSearch } from '../tools/semantic-scholar.js';
import { cachedSearch } from './search-cache.js';
import type {
  PaperSearch,
  ResearchDependencies,
  ScrapePage,
  SourceSearch,
} from './research-dependencies.js';

/** Options of {@link createResearchDependencies}. */
export interface CreateResearchDependenciesOptions {
  /** The store: internal retrieval and durable runs. */
  store?: Store;
  /** A retriever to use instead of one built on the store. */
  retriever?: Retriever;
  logger?: Logger;
  fetch?: typeof fetch;
}

const clamp = (score: number | undefined) =>
  score === undefined || !Number.isFinite(score) ? undefined : Math.min(1, Math.max(0, score));

/**
 * Wires the real parts of a research run from the config: the store's retriever and run log, the
 * model provider's fast tier for analysis and full tier for the lead, Tavily (when
 * `TAVILY_API_KEY` is set) with the top page read through `web_fetch`, arXiv, Semantic Scholar
 * (when `USE_SEMANTIC_SCHOLAR=true` and `SEMANTIC_SCHOLAR_API_KEY` are set) and Python in the bubblewrap sandbox.
 * Web and paper searches reuse their results for the same query for `research.searchCacheSeconds`.
 *
 * @example
 * const store = await openStore(config);
 * const result = await runResearch(question, createResearchDependencies(config, { store }));
 */
export function createResearchDependencies(
  config: CohortConfig,
  options: CreateResearchDependenciesOptions = {},
): ResearchDependencies {
  const tools = config.tools;
  const timeoutMs = config.research.timeoutWebSearch * 1000;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const retriever =
    options.retriever ?? (options.store ? createRetriever(options.store) : undefined);
  const apiKey = tools.tavilyApiKey;
  const webSearch: SourceSearch | undefined = apiKey
    ? async (query, { signal, maxResults }) => {
        const found = unwrapOutcome(
          await tavilySearch(query, {
            apiKey,
            baseUrl: tools.tavilyBaseUrl,
            maxResults,
            signal,
            timeoutMs,
            ...fetchOption,
          }),
        );
        return found.results.map((hit) => ({
          identifier: hit.url,
          sourceType: 'web' as const,
          title: hit.title || hit.url,
          content: hit.rawContent ?? hit.content,
          url: hit.url,
          ...(clamp(hit.score) === undefined ? {} : { score: clamp(hit.score) }),
          ...(hit.publishedDate ? { published: hit.publishedDate } : {}),
        }));
      }
    : undefined;
  const scrapePage: ScrapePage = async (url, { signal }) => {
    const page = unwrapOutcome(
      await fetchReadable(url, {
        signal,
        timeoutMs,
        allowPrivateNetwork: tools.allowPrivateNetwork,
        ...fetchOption,
      }),
    );
    return page.text;
  };
  const paperSearches: PaperSearch[] = [
    {
      name: 'arxiv',
      search: async (query, { signal, maxResults }) =>
        unwrapOutcome(
          await arxivSearch(query, {
            baseUrl: tools.arxivBaseUrl,
            maxResults,
            signal,
            timeoutMs,
            ...fetchOption,
          }),
        ).papers,
    },
  ];
  const s2Key = tools.semanticScholarApiKey;
  if (tools.useSemanticScholar && s2Key) {
    paperSearches.push({
      name: 'semantic_scholar',
      search: async (query, { signal, maxResults }) =>
        unwrapOutcome(
          await semanticScholarSearch(query, {
            apiKey: s2Key,
            baseUrl: tools.semanticScholarBaseUrl,
            maxResults,
            signal,
            timeoutMs,
            ...fetchOption,
          }),
        ).papers,
    });
  }
  // A question asked again (in one server, or a resumed run) reuses its searches' results.
  const ttlMs = config.research.searchCacheSeconds * 1000;
  const cached = (search: SourceSearch) => (ttlMs > 0 ? cachedSearch(search, { ttlMs }) : search);
  const provider = hasModel(config) ? createModelProvider(config, fetchOption) : undefined;
  return {
    settings: config.research,
    ...(retriever ? { retriever } : {}),
    ...(webSearch ? { webSearch: cached(webSearch) } : {}),
    paperSearches: paperSearches.map((paper) => ({ ...paper, search: cached(paper.search) })),
    scrapePage,
    ...(provider
      ? { model: provider.languageModel('fast'), leadModel: provider.languageModel('full') }
      : {}),
    sandbox: (code, run) => runCode(code, { ...run, settings: config.sandbox }),
    ...(options.store ? { runs: options.store.runs } : {}),
    internalMinScore: config.retrieval.minScore,
    ...(options.logger ? { logger: options.logger } : {}),
  };
}
