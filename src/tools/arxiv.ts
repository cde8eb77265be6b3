import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';
import type { SourceDocument } from '../schema/index.js';
import { readServiceText, timedFetch, toCohortError, type FetchLike } from './timed-fetch.js';
import { toolFailure, type ToolOutcome } from './tool.js';

/** arXiv's public Atom query endpoint. */
export const ARXIV_BASE_URL = 'https://export.arxiv.org/api/query';
/** Papers asked for when the caller does not say. */
export const DEFAULT_PAPER_RESULTS = 5;
/** Time limit of one paper search when the caller does not say. */
export const DEFAULT_PAPER_TIMEOUT_MS = 20_000;

/** A paper search's answer: papers as sources, or the error as a value (never thrown). */
export type PaperSearchOutcome = ToolOutcome<{ papers: SourceDocument[] }>;

/** Options of a paper search (arXiv or Semantic Scholar). */
export interface PaperSearchOptions {
  baseUrl?: string;
  maxResults?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
}

const STOPWORDS = new Set(
  'a an and are as at be by can do does for from how in is it of on or the their this to what when where which who why with'.split(
    ' ',
  ),
);

/** arXiv query syntax for free text: the first meaningful words, all required, in any field. */
export function arxivQuery(text: string): string {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? []).filter(
    (word) => word.length > 2 && !STOPWORDS.has(word),
  );
  const terms = [...new Set(words)].slice(0, 4);
  return terms.length > 0 ? terms.map((term) => `all:${term}`).join(' AND ') : `all:${text.trim()}`;
}

const require = createRequire(import.meta.url);
let parser: XMLParser | undefined;
/** The Atom parser, made on first use: importing cohort does not load the XML parser. */
function atomParser(): XMLParser {
  const { XMLParser: Parser } = require('fast-xml-parser') as typeof import('fast-xml-parser');
  return (parser ??= new Parser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'entry' || name === 'author' || name === 'link',
  }));
}

interface AtomEntry {
  id?: string;
  title?: string;
  summary?: string;
  published?: string;
  author?: { name?: string }[];
  link?: { href?: string; rel?: string; type?: string; title?: string }[];
}

const clean = (value: unknown) =>
  String(value ?? '')
    .replace(/\s+/g, ' ')
    .trim();

/** Parses an arXiv Atom feed into paper sources; an arXiv error entry becomes an Error. */
export function parseArxivFeed(xml: string): SourceDocument[] {
  const parsed = atomParser().parse(xml) as { feed?: { entry?: AtomEntry[] } };
  if (!parsed.feed) throw new Error('the answer is not an Atom feed');
  const entries = parsed.feed.entry ?? [];
  const failure = entries.find((entry) => clean(entry.id).includes('arxiv.org/api/errors'));
  if (failure) throw new Error(`arXiv rejected the query: ${clean(failure.summary)}`);
  return entries.map((entry) => {
    const id = clean(entry.id);
    const page = entry.link?.find((link) => link.rel === 'alternate')?.href ?? id;
    return {
      identifier: page,
      sourceType: 'paper' as const,
      title: clean(entry.title),
      content: clean(entry.summary),
      url: page,
      authors: (entry.author ?? []).map((author) => clean(author.name)).filter(Boolean),
      published: clean(entry.published).slice(0, 10) || undefined,
    };
  });
}

/**
 * Searches arXiv's public Atom API (no key needed) and returns title, authors, abstract, date and
 * URL of each paper. Errors come back as values.
 *
 * @example
 * const outcome = await arxivSearch('humanoid robot locomotion', { maxResults: 3 });
 * if (outcome.ok) console.log(outcome.papers.map((p) => p.title));
 */
export async function arxivSearch(
  query: string,
  options: PaperSearchOptions = {},
): Promise<PaperSearchOutcome> {
  const url = new URL(options.baseUrl ?? ARXIV_BASE_URL);
  url.searchParams.set('search_query', arxivQuery(query));
  url.searchParams.set('start', '0');
  url.searchParams.set('max_results', String(options.maxResults ?? DEFAULT_PAPER_RESULTS));
  url.searchParams.set('sortBy', 'relevance');
  try {
    const response = await timedFetch(
      url.toString(),
      { headers: { accept: 'application/atom+xml' } },
      {
        timeoutMs: options.timeoutMs ?? DEFAULT_PAPER_TIMEOUT_MS,
        signal: options.signal,
        fetch: options.fetch,
        service: 'arXiv',
      },
    );
    return {
      ok: true,
      papers: parseArxivFeed(await readServiceText(response, { service: 'arXiv' })),
    };
  } catch (error) {
    return toolFailure(toCohortError(error, 'arXiv'));
  }
}
