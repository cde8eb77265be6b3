import type { SourceDocument } from '../schema/index.js';
import type { SourceSearch } from './research-dependencies.js';
import { settleBounded } from '../bounded-call/index.js';
import type { SubagentContext, SubagentNode } from './subagent-state.js';
import { visited } from './visited-registry.js';

/** Web results asked for per task. */
export const WEB_RESULT_LIMIT = 5;
/** Papers asked for per paper service and task. */
export const PAPER_RESULT_LIMIT = 5;
/** Characters of a scraped page kept for analysis. */
export const SCRAPED_PAGE_CHARS = 6000;

interface Branch {
  sources: SourceDocument[];
  reasons: string[];
}

/**
 * Claims each found source in the shared registry (which holds every source of the run, this
 * subagent's earlier ones included), keeping only the ones this subagent got first.
 */
function claimNew(found: SourceDocument[], context: SubagentContext) {
  return found.filter((source) => context.registry.claim(source));
}

async function search(
  name: string,
  run: SourceSearch,
  query: string,
  limit: number,
  context: SubagentContext,
): Promise<{ found: SourceDocument[]; reason?: string }> {
  const timed = await settleBounded((signal) => run(query, { signal, maxResults: limit }), {
    timeoutMs: context.settings.timeoutWebSearch * 1000,
    signal: context.signal,
    what: `${name} search`,
  });
  return timed.ok ? { found: timed.value } : { found: [], reason: timed.message };
}

async function webBranch(
  state: Parameters<SubagentNode>[0],
  context: SubagentContext,
): Promise<Branch> {
  if (!context.webSearch)
    return { sources: [], reasons: ['web search is not configured (set TAVILY_API_KEY)'] };
  const { found, reason } = await search(
    'web',
    context.webSearch,
    state.taskDescription,
    WEB_RESULT_LIMIT,
    context,
  );
  const sources = claimNew(found, context).map((source) => ({
    ...source,
    sourceType: 'web' as const,
  }));
  const reasons = reason ? [reason] : [];
  const top = sources[0];
  const scrape = context.scrapePage;
  if (top?.url && scrape) {
    // The top result was claimed above, so no other subagent fetches this page.
    const page = await settleBounded((signal) => scrape(top.url as string, { signal }), {
      timeoutMs: context.settings.timeoutWebSearch * 1000,
      signal: context.signal,
      what: `reading ${top.url}`,
    });
    if (page.ok && page.value.trim()) top.content = page.value.trim().slice(0, SCRAPED_PAGE_CHARS);
    else if (!page.ok) reasons.push(page.message);
  }
  if (!reason && found.length > 0 && sources.length === 0)
    reasons.push('every web result was already visited');
  return { sources, reasons };
}

async function paperBranch(
  state: Parameters<SubagentNode>[0],
  context: SubagentContext,
): Promise<Branch> {
  const searches = context.paperSearches ?? [];
  if (searches.length === 0) return { sources: [], reasons: ['paper search is not configured'] };
  const results = await Promise.all(
    searches.map((paper) =>
      search(paper.name, paper.search, state.taskDescription, PAPER_RESULT_LIMIT, context),
    ),
  );
  const found = results.flatMap((result) => result.found);
  const sources = claimNew(found, context).map((source) => ({
    ...source,
    sourceType: 'paper' as const,
  }));
  return { sources, reasons: results.flatMap((result) => (result.reason ? [result.reason] : [])) };
}

/**
 * web_search_node: searches the web (with the top page read in full) and papers (arXiv, and
 * Semantic Scholar when a key is set) in parallel, each bounded by `research.timeoutWebSearch`.
 * Sources another subagent already claimed are skipped; a slow or failing service gives its
 * reason and the others' results are kept.
 *
 * @example
 * const update = await webSearchNode(state, context); // { webResult, paperResult, visitedSources }
 */
export const webSearchNode: SubagentNode = async (state, context) => {
  const [web, papers] = await Promise.all([webBranch(state, context), paperBranch(state, context)]);
  const reason = (branch: Branch) =>
    branch.reasons.length ? { reason: branch.reasons.join('; ') } : {};
  return {
    webResult: { sources: web.sources, ...reason(web) },
    paperResult: { sources: papers.sources, ...reason(papers) },
    visitedSources: [
      ...state.visitedSources,
      ...web.sources.map((source) => visited(source.identifier, 'web')),
      ...papers.sources.map((source) => visited(source.identifier, 'paper')),
    ],
  };
};
