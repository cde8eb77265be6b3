import * as z from 'zod';
import type { CohortTool } from './tool.js';
import { tavilySearch, type TavilySearchOptions, type WebSearchOutcome } from './tavily.js';
import { lazySchema } from '../schema/lazy-schema.js';

const WebSearchInput = lazySchema(() =>
  z.object({
    query: z.string().min(1).describe('What to search the web for.'),
    maxResults: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .describe('How many results (default 5).'),
  }),
);
type WebSearchInput = z.infer<typeof WebSearchInput>;

/**
 * The `web_search` tool: searches the web through {@link tavilySearch}.
 *
 * @example
 * const tool = createWebSearchTool({ apiKey: process.env.TAVILY_API_KEY, baseUrl: 'https://api.tavily.com' });
 * await tool.execute({ query: 'vitest fake timers' }, {});
 */
export function createWebSearchTool(
  options: Omit<TavilySearchOptions, 'signal'>,
): CohortTool<WebSearchInput, WebSearchOutcome> {
  return {
    name: 'web_search',
    description:
      'Search the web. Returns titles, URLs and content snippets; use web_fetch to read a page in full.',
    inputSchema: WebSearchInput,
    execute: ({ query, maxResults }, { signal }) =>
      tavilySearch(query, {
        ...options,
        ...(maxResults ? { maxResults } : {}),
        ...(signal ? { signal } : {}),
      }),
  };
}
