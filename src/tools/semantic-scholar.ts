import { CohortError } from '../errors/index.js';
import type { SourceDocument } from '../schema/index.js';
import {
  DEFAULT_PAPER_RESULTS,
  DEFAULT_PAPER_TIMEOUT_MS,
  type PaperSearchOptions,
  type PaperSearchOutcome,
} from './arxiv.js';
import { readServiceText, timedFetch, toCohortError } from './timed-fetch.js';
import { toolFailure } from './tool.js';

/** Semantic Scholar's Graph API. */
export const SEMANTIC_SCHOLAR_BASE_URL = 'https://api.semanticscholar.org/graph/v1';
/** The paper fields asked for. */
export const SEMANTIC_SCHOLAR_FIELDS = 'title,authors,abstract,year,url,externalIds';

interface GraphPaper {
  paperId?: string;
  title?: string | null;
  abstract?: string | null;
  year?: number | null;
  url?: string | null;
  authors?: { name?: string | null }[] | null;
  externalIds?: Record<string, string | number> | null;
}

/** Turns a Graph API `/paper/search` body into paper sources. */
export function parseSemanticScholar(body: unknown): SourceDocument[] {
  const data = (body as { data?: GraphPaper[] } | null)?.data;
  if (!Array.isArray(data)) throw new Error('the answer has no "data" list');
  return data
    .filter((paper) => paper.paperId || paper.url)
    .map((paper) => {
      const arxivId = paper.externalIds?.ArXiv;
      const url =
        paper.url ??
        (arxivId
          ? `https://arxiv.org/abs/${arxivId}`
          : `https://www.semanticscholar.org/paper/${paper.paperId}`);
      return {
        identifier: url,
        sourceType: 'paper' as const,
        title: (paper.title ?? '').trim(),
        content: (paper.abstract ?? '').trim(),
        url,
        authors: (paper.authors ?? []).map((author) => author.name ?? '').filter(Boolean),
        ...(paper.year ? { published: String(paper.year) } : {}),
      };
    });
}

/**
 * Searches Semantic Scholar's Graph API (`/paper/search`) with the `x-api-key` header. Needs an
 * API key; errors come back as values.
 *
 * @example
 * const outcome = await semanticScholarSearch('sim-to-real transfer', { apiKey: process.env.SEMANTIC_SCHOLAR_API_KEY! });
 */
export async function semanticScholarSearch(
  query: string,
  options: PaperSearchOptions & { apiKey: string },
): Promise<PaperSearchOutcome> {
  if (!options.apiKey) {
    return toolFailure(
      new CohortError(
        'unauthorized',
        'Semantic Scholar needs an API key: set SEMANTIC_SCHOLAR_API_KEY.',
      ),
    );
  }
  const url = new URL(
    `${(options.baseUrl ?? SEMANTIC_SCHOLAR_BASE_URL).replace(/\/$/, '')}/paper/search`,
  );
  url.searchParams.set('query', query);
  url.searchParams.set('fields', SEMANTIC_SCHOLAR_FIELDS);
  url.searchParams.set('limit', String(options.maxResults ?? DEFAULT_PAPER_RESULTS));
  try {
    const response = await timedFetch(
      url.toString(),
      { headers: { 'x-api-key': options.apiKey, accept: 'application/json' } },
      {
        timeoutMs: options.timeoutMs ?? DEFAULT_PAPER_TIMEOUT_MS,
        signal: options.signal,
        fetch: options.fetch,
        service: 'Semantic Scholar',
      },
    );
    return {
      ok: true,
      papers: parseSemanticScholar(
        JSON.parse(await readServiceText(response, { service: 'Semantic Scholar' })),
      ),
    };
  } catch (error) {
    return toolFailure(toCohortError(error, 'Semantic Scholar'));
  }
}
